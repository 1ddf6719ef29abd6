/**
 * The server's side of the engine process: DuckDB (and any future embedded engine) runs in a
 * child process (`child.ts`), so a native crash or a runaway allocation takes down that process,
 * never the server. This class starts the child on first use, sends it requests and matches the
 * answers, holds its memory ceiling, and restarts it after a death.
 *
 * - **Memory ceiling**: the child runs under `prlimit --data` (RLIMIT_DATA, every private
 *   writable mapping: malloc, mmap, thread stacks) set to the ceiling plus what a bare Node
 *   reserves at start (runtime-reserve.ts), so an allocation past the ceiling fails
 *   inside the engine, which answers "Out of Memory Error: Allocation failure" and lives on.
 *   A watchdog reads the child's resident size (`/proc/<pid>/status`) and kills it past the
 *   ceiling (under prlimit: past a margin above it): the backstop where prlimit is missing.
 * - **Death**: every request in flight answers DATASOURCE_CONNECTION_ERROR ("the query engine
 *   process stopped …: retry"), the event is logged, and the next request starts a new child
 *   (a generation): no sooner than the backoff after a death (0 for the first, then 0.5 s,
 *   doubling to 10 s; reset once a child lived a minute), so a crash loop cannot spin.
 *   Connectors notice the new generation and reopen what they held.
 * - **close()** stops the child (SIGTERM, SIGKILL after 2 s); requests then fail.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { connectionError } from '../errors.js'
import { Outbox } from './outbox.js'
import { fromWire, type Ready, type Request, type Response } from './protocol.js'
import { nodeReservedBytes } from './runtime-reserve.js'

export interface EngineLog {
  info(obj: Record<string, unknown>, msg: string): void
  error(obj: Record<string, unknown>, msg: string): void
}

export interface EngineHostOptions {
  /** The child's memory ceiling, in MiB (ENGINE_MEMORY_LIMIT_MB). */
  readonly memoryLimitMb: number
  /** Start the child under `prlimit --data` when prlimit exists (default true). */
  readonly hardLimit?: boolean
  /** How often the watchdog reads the child's resident size, ms (default 250; 0: off). */
  readonly watchdogMs?: number
  readonly log?: EngineLog
}

const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit']
const START_TIMEOUT_MS = 15_000
const STOP_GRACE_MS = 2_000
const BACKOFF_FIRST_MS = 500
const BACKOFF_MAX_MS = 10_000
const HEALTHY_AFTER_MS = 60_000

const silent: EngineLog = { info: () => {}, error: () => {} }

interface Pending {
  readonly resolve: (value: unknown) => void
  readonly reject: (err: Error) => void
}

interface Running {
  readonly child: ChildProcess
  readonly generation: number
  readonly startedAt: number
  readonly pending: Map<number, Pending>
  /** Requests posted in this turn, sent together at its end. */
  readonly outbox: Outbox<Request>
  /** Started under prlimit --data. */
  readonly hard: boolean
  /** Why we killed it, when we did (the watchdog). */
  killedFor?: string
  watchdog?: ReturnType<typeof setInterval>
}

export interface CallOptions {
  /** The generation the caller's state lives in: a request to a newer child fails instead. */
  readonly generation?: number
  /** Gives up waiting (the request's promise rejects with a plain Error); the child is not told. */
  readonly abandon?: AbortSignal
}

export class EngineHost {
  readonly #options: EngineHostOptions
  readonly #log: EngineLog
  #running: Running | undefined
  #starting: Promise<Running> | undefined
  #generation = 0
  #nextId = 1
  #deaths = 0
  #lastDeathAt = 0
  /** Messages sent to children that have stopped. */
  #sent = 0
  #closed = false

  constructor(options: EngineHostOptions) {
    if (!Number.isSafeInteger(options.memoryLimitMb) || options.memoryLimitMb < 128) {
      throw new RangeError('the engine memory limit must be a whole number of MiB, at least 128')
    }
    this.#options = options
    this.#log = options.log ?? silent
  }

  /** The current child's generation (0 before the first); a restart makes a new one. */
  get generation(): number {
    return this.#generation
  }

  /** The child's process id while it runs. */
  get pid(): number | undefined {
    return this.#running?.child.pid
  }

  /** The child of `generation` is the one running now. */
  alive(generation: number): boolean {
    return this.#running !== undefined && this.#running.generation === generation
  }

  /** Starts the child when none runs (after the backoff of a death); its generation. */
  async start(): Promise<number> {
    return (await this.#ensure()).generation
  }

  /** Sends `op`, answers its value; rejects with the child's error, or when the child dies. */
  async call<T>(op: string, args: unknown, options: CallOptions = {}): Promise<T> {
    const running = await this.#ensure()
    if (options.generation !== undefined && running.generation !== options.generation) {
      throw stopped('restarted since this datasource was opened')
    }
    options.abandon?.throwIfAborted()
    const id = this.#nextId++
    return new Promise<T>((resolve, reject) => {
      const onAbandon = () => {
        if (running.pending.delete(id)) {
          this.#refs(running)
          reject(new Error('the engine did not stop the statement in time'))
        }
      }
      options.abandon?.addEventListener('abort', onAbandon, { once: true })
      running.pending.set(id, {
        resolve: (value) => {
          options.abandon?.removeEventListener('abort', onAbandon)
          resolve(value as T)
        },
        reject: (err) => {
          options.abandon?.removeEventListener('abort', onAbandon)
          reject(err)
        },
      })
      this.#refs(running)
      // sent with the other requests of this turn, as one message (outbox.ts)
      running.outbox.post({ id, op, args }, (err, thrown) => {
        if (!running.pending.delete(id)) return
        this.#refs(running)
        // thrown: a value structured clone cannot carry (a function), nothing was sent
        reject(thrown ? err : stopped('it could not be reached'))
      })
    })
  }

  /** Messages sent to the engine process so far (each carries the requests of one turn). */
  get messagesSent(): number {
    return this.#sent + (this.#running?.outbox.sent ?? 0)
  }

  /** Sends `op` without waiting for an answer (an interrupt); nothing when no child runs. */
  notify(op: string, args: unknown, generation?: number): void {
    const running = this.#running
    if (!running || (generation !== undefined && running.generation !== generation)) return
    // after the requests posted before it (an interrupt follows its query)
    running.outbox.post({ id: 0, op, args }, () => {})
  }

  async close(): Promise<void> {
    this.#closed = true
    const running = this.#running ?? (await this.#starting?.catch(() => undefined))
    if (!running) return
    const exited = new Promise<void>((resolve) => running.child.once('exit', () => resolve()))
    if (running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill('SIGTERM')
      const force = setTimeout(() => running.child.kill('SIGKILL'), STOP_GRACE_MS)
      await exited
      clearTimeout(force)
    }
  }

  #ensure(): Promise<Running> {
    if (this.#closed) return Promise.reject(stopped('the server is shutting down'))
    if (this.#running) return Promise.resolve(this.#running)
    if (!this.#starting) {
      const starting = this.#spawn()
      this.#starting = starting
      void starting.then(
        () => {
          if (this.#starting === starting) this.#starting = undefined
        },
        () => {
          if (this.#starting === starting) this.#starting = undefined
        },
      )
    }
    return this.#starting
  }

  async #spawn(): Promise<Running> {
    const wait = this.#backoff() - (Date.now() - this.#lastDeathAt)
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    if (this.#closed) throw stopped('the server is shutting down')
    const { command, args, hard } = await this.#command()
    if (this.#closed) throw stopped('the server is shutting down')
    const child = spawn(command, args, {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
      env: {},
    })
    const generation = ++this.#generation
    const outbox = new Outbox<Request>((batch, done) => child.send(batch, done))
    const running: Running = { child, generation, startedAt: Date.now(), pending: new Map(), hard, outbox }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL')
        reject(stopped(`it did not start within ${START_TIMEOUT_MS} ms`))
      }, START_TIMEOUT_MS)
      const onMessage = (message: Ready) => {
        if (message?.ready !== true) return
        cleanup()
        resolve()
      }
      const onExit = (code: number | null, signal: string | null) => {
        cleanup()
        reject(stopped(`it exited while starting (${signal ?? `code ${code}`})`))
      }
      const cleanup = () => {
        clearTimeout(timer)
        child.off('message', onMessage)
        child.off('exit', onExit)
      }
      child.on('message', onMessage)
      child.once('exit', onExit)
      child.once('error', (err) => {
        cleanup()
        reject(stopped(`it could not be started (${err.message})`))
      })
    }).catch((err: unknown) => {
      this.#deaths++
      this.#lastDeathAt = Date.now()
      throw err
    })
    // an 'error' without a listener would throw in the server: a failed kill or send is logged
    child.on('error', (err) => this.#log.error({ err, pid: child.pid }, 'engine process error'))
    // the answers that ended in one turn of the child's event loop come as one message
    child.on('message', (answers: Response[]) => {
      if (Array.isArray(answers)) for (const answer of answers) this.#answer(running, answer)
    })
    child.once('exit', (code, signal) => this.#died(running, code, signal))
    this.#watch(running)
    this.#running = running
    this.#refs(running)
    if (this.#closed) child.kill('SIGKILL')
    this.#log.info(
      { pid: child.pid, generation, memoryLimitMb: this.#options.memoryLimitMb, prlimit: hard },
      'engine process started',
    )
    return running
  }

  async #command(): Promise<{ command: string; args: string[]; hard: boolean }> {
    // From the sources (tests, `npm run dev`) the child runs through tsx; from dist as it is.
    const ts = import.meta.url.endsWith('.ts')
    const entry = fileURLToPath(new URL(`./child.${ts ? 'ts' : 'js'}`, import.meta.url))
    const flags = ts ? ['--import', 'tsx'] : []
    const node = [...flags, entry]
    const prlimit = this.#options.hardLimit === false ? undefined : PRLIMIT.find((p) => existsSync(p))
    if (prlimit === undefined) return { command: process.execPath, args: node, hard: false }
    // the ceiling on top of what the Node runtime itself reserves at start (runtime-reserve.ts)
    const bytes = this.#options.memoryLimitMb * 1024 * 1024 + (await nodeReservedBytes(flags))
    return { command: prlimit, args: [`--data=${bytes}:${bytes}`, process.execPath, ...node], hard: true }
  }

  #answer(running: Running, message: Response): void {
    const pending = running.pending.get(message.id)
    if (!pending) return
    running.pending.delete(message.id)
    this.#refs(running)
    if (message.ok) pending.resolve(message.value)
    else pending.reject(fromWire(message.error))
  }

  #died(running: Running, code: number | null, signal: string | null): void {
    clearInterval(running.watchdog)
    this.#sent += running.outbox.sent
    if (this.#running === running) this.#running = undefined
    const lived = Date.now() - running.startedAt
    if (lived >= HEALTHY_AFTER_MS) this.#deaths = 0
    this.#deaths++
    this.#lastDeathAt = Date.now()
    const reason =
      running.killedFor ?? (signal !== null ? `it was killed by ${signal}` : `it exited with code ${code ?? '?'}`)
    const error = stopped(`${reason} while this ran`)
    for (const pending of running.pending.values()) pending.reject(error)
    const inFlight = running.pending.size
    running.pending.clear()
    if (this.#closed) return
    this.#log.error(
      {
        pid: running.child.pid,
        generation: running.generation,
        code,
        signal,
        reason,
        inFlight,
        restartInMs: this.#backoff(),
      },
      'engine process stopped: its requests failed; it restarts on the next use',
    )
  }

  /**
   * The watchdog: past its line in resident memory, the child is killed. Under prlimit the line
   * is above the ceiling (resident memory also counts the shared code of Node and DuckDB, which
   * RLIMIT_DATA does not): there the engine's own allocation failure answers first, and the
   * watchdog only catches what prlimit cannot bound.
   */
  #watch(running: Running): void {
    const every = this.#options.watchdogMs ?? 250
    const pid = running.child.pid
    if (every <= 0 || pid === undefined || !existsSync(`/proc/${pid}/status`)) return
    const ceiling = this.#options.memoryLimitMb
    const lineMb = running.hard ? ceiling + Math.max(256, Math.round(ceiling / 4)) : ceiling
    running.watchdog = setInterval(() => {
      void residentKb(pid).then((kb) => {
        if (kb === undefined || kb <= lineMb * 1024 || running.killedFor !== undefined) return
        running.killedFor = `its memory passed ${lineMb} MiB (ceiling ENGINE_MEMORY_LIMIT_MB ${ceiling} MiB)`
        running.child.kill('SIGKILL')
      })
    }, every)
    running.watchdog.unref()
  }

  /** The child keeps the server's event loop alive only while a request waits for it. */
  #refs(running: Running): void {
    const channel = running.child.channel as { ref(): void; unref(): void } | null | undefined
    if (running.pending.size > 0) {
      running.child.ref()
      channel?.ref()
    } else {
      running.child.unref()
      channel?.unref()
    }
  }

  #backoff(): number {
    if (this.#deaths <= 1) return 0
    return Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (this.#deaths - 2))
  }
}

/** What a request answers when the engine process is gone: the datasource failed, retry. */
function stopped(reason: string) {
  return connectionError(`the query engine process stopped (${reason}); it restarts on the next request: retry`)
}

/** VmRSS of `pid` in KiB, or undefined when it cannot be read (the process is gone). */
async function residentKb(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined)
  const match = status?.match(/^VmRSS:\s+(\d+)\s+kB/m)
  return match ? Number(match[1]) : undefined
}
