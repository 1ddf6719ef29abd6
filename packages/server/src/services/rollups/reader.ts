import { resolve } from 'node:path'
import type { ReadRollupArgs } from '../../connectors/duckdb/rollup-reader.js'
import type { EngineHost } from '../../connectors/engine-host/supervisor.js'
import type { QueryResult } from '../../connectors/types.js'
import type { RollupChoice } from '../../query/plan.js'
import type { RollupStorage } from './storage.js'

/**
 * Runs the statements of a plan served from a rollup: DuckDB in the engine process reads the
 * rollup's files (connectors/duckdb/rollup-reader.ts). A read that takes longer than the query
 * timeout is abandoned (its answer, if any, is dropped); the caller falls back to the warehouse.
 */
export class RollupReader {
  constructor(
    private readonly engine: EngineHost,
    private readonly storage: RollupStorage,
    private readonly memoryLimitMb: number,
  ) {}

  async read(
    choice: RollupChoice,
    options: { readonly timeZone: string; readonly maxRows: number; readonly timeoutMs: number },
  ): Promise<{ main: QueryResult; count?: QueryResult; comparison?: QueryResult }> {
    const { main, count, comparison } = choice.statements
    const statements = [main, ...(count ? [count] : []), ...(comparison ? [comparison] : [])]
    // a local path per file: the file itself on local disk, a read copy of an S3 object
    const files = await Promise.all(choice.files.map(async (f) => resolve(await this.storage.localPath(f))))
    const args: ReadRollupArgs = {
      root: resolve(this.storage.readRoot),
      files,
      order: choice.order,
      statements: statements.map((s) => ({ sql: s.sql, params: s.params })),
      maxRows: options.maxRows,
      timeZone: options.timeZone,
      memoryLimitMb: this.memoryLimitMb,
    }
    const abandon = new AbortController()
    const timer = setTimeout(() => abandon.abort(), options.timeoutMs)
    try {
      const results = await this.engine.call<QueryResult[]>('duckdb.readRollup', args, { abandon: abandon.signal })
      const [first, second, third] = results
      if (first === undefined) throw new Error('the rollup read answered no result')
      return {
        main: first,
        ...(count ? { count: second as QueryResult } : {}),
        ...(comparison ? { comparison: (count ? third : second) as QueryResult } : {}),
      }
    } finally {
      clearTimeout(timer)
    }
  }
}
