import type {
  AppendArgs,
  DropArgs,
  FinishArgs,
  FinishedFile,
  OpenWriterArgs,
  ParquetPart,
} from '../../connectors/duckdb/parquet-writer.js'
import type { EngineHost } from '../../connectors/engine-host/supervisor.js'

/**
 * The server's side of one build's Parquet writer in the engine process
 * (connectors/duckdb/parquet-writer.ts): opened at the first rows, fed batch by batch with one
 * append in flight at a time, some keys dropped (a tenant database whose part failed), finished
 * into staged files or discarded. Every call names the engine generation the writer lives in, so
 * a restarted engine fails the build instead of answering for a writer it never opened.
 */
export class RollupFileWriter {
  #writer: { id: number; generation: number } | undefined
  /** The append the engine process is doing now (sent, not yet answered). */
  #inFlight: Promise<unknown> | undefined
  /** Engine requests sent (opens, appends, finishes): tests bound a build's by its batch size. */
  calls = 0

  constructor(
    private readonly engine: EngineHost,
    private readonly memoryLimitMb: number,
  ) {}

  /**
   * Sends a batch's rows once the append before it is in (that append's failure is thrown here)
   * and returns without waiting for this one: the engine process appends while the caller reads
   * and splits the next batch. At most one append is in flight; `drain`, `finish` and `discard`
   * wait for it.
   */
  async append(parts: readonly ParquetPart[]): Promise<void> {
    await this.drain()
    if (parts.length === 0) return
    const writer = this.#writer ?? (await this.#open())
    const args: AppendArgs = { writer: writer.id, parts }
    this.calls++
    const sent = this.engine.call<unknown>('duckdb.parquetAppend', args, { generation: writer.generation })
    // awaited by the next append, drain, finish or discard: a failure meanwhile is not unhandled
    sent.catch(() => undefined)
    this.#inFlight = sent
  }

  /** Waits for the append in flight, if any; throws its failure. */
  async drain(): Promise<void> {
    const inFlight = this.#inFlight
    this.#inFlight = undefined
    await inFlight
  }

  /** Forgets the rows appended under these keys (a tenant database whose part failed); the others stay. */
  async drop(keys: readonly string[]): Promise<void> {
    // the append in flight may hold rows of those keys
    await this.drain()
    const writer = this.#writer
    if (writer === undefined || keys.length === 0) return
    const args: DropArgs = { writer: writer.id, keys }
    this.calls++
    await this.engine.call('duckdb.parquetDrop', args, { generation: writer.generation })
  }

  /** Writes every file appended to its path; the rows of each. Nothing appended: nothing written. */
  async finish(files: FinishArgs['files']): Promise<readonly FinishedFile[]> {
    await this.drain()
    const writer = this.#writer
    if (writer === undefined) return []
    this.#writer = undefined
    const args: FinishArgs = { writer: writer.id, files }
    this.calls++
    const done = await this.engine.call<{ files: FinishedFile[] }>('duckdb.parquetFinish', args, {
      generation: writer.generation,
    })
    return done.files
  }

  /** Drops what was appended (a failed build); never throws. */
  async discard(): Promise<void> {
    // the append in flight ends first (the engine would otherwise drop tables under it)
    await this.#inFlight?.catch(() => undefined)
    this.#inFlight = undefined
    const writer = this.#writer
    if (writer === undefined) return
    this.#writer = undefined
    if (!this.engine.alive(writer.generation)) return // the engine that held it is gone, and its tables
    await this.engine
      .call('duckdb.parquetDiscard', { writer: writer.id }, { generation: writer.generation })
      .catch(() => undefined)
  }

  async #open(): Promise<{ id: number; generation: number }> {
    const generation = await this.engine.start()
    const args: OpenWriterArgs = { memoryLimitMb: this.memoryLimitMb }
    this.calls++
    const { writer } = await this.engine.call<{ writer: number }>('duckdb.parquetOpen', args, { generation })
    this.#writer = { id: writer, generation }
    return this.#writer
  }
}
