/**
 * The SQL executor behind the Trino and Athena stand-ins: DuckDB (@duckdb/node-api), in memory.
 * DuckDB is not Trino: the stand-ins prove the transport (protocol, paging, cancel, errors,
 * session headers), never Trino's SQL semantics. Fixture statements aimed at a stand-in are
 * DuckDB SQL.
 *
 * Parameters arrive as literal text, as Trino's EXECUTE … USING and Athena's ExecutionParameters
 * deliver them. DuckDB parses and evaluates them (its string literal rules are Trino's), one
 * prepared `SELECT <literals>` (a single statement: DuckDB refuses to prepare two, so a literal
 * that broke out of its quotes fails here), and their values are bound to the statement.
 */
import { type DuckDBConnection, DuckDBInstance, type DuckDBValue } from '@duckdb/node-api'

export interface EngineResult {
  /** DuckDB type names, e.g. INTEGER, DECIMAL(10,2), TIMESTAMP WITH TIME ZONE. */
  readonly columns: readonly { readonly name: string; readonly type: string }[]
  /** Values as DuckDB gives them to JS (DuckDB value objects print as DuckDB text). */
  readonly rows: readonly (readonly DuckDBValue[])[]
}

export interface RunningStatement {
  readonly result: Promise<EngineResult>
  /** Stops the statement (DuckDB interrupt): its promise rejects. */
  interrupt(): void
}

export interface RunOptions {
  /** Parameter values as literal text (each one literal), or one comma-separated list. */
  readonly literals?: readonly string[]
  readonly schema?: string
  readonly timeZone?: string
}

/** A stand-in's own literal (test code): quote doubled. */
const lit = (text: string) => `'${text.replaceAll("'", "''")}'`

export class DuckdbEngine {
  private constructor(private readonly instance: DuckDBInstance) {}

  static async create(): Promise<DuckdbEngine> {
    return new DuckdbEngine(await DuckDBInstance.create(':memory:'))
  }

  /** Fixture set-up statements (trusted test SQL). */
  async exec(sql: string): Promise<void> {
    const conn = await this.instance.connect()
    try {
      await conn.run(sql)
    } finally {
      conn.closeSync()
    }
  }

  start(sql: string, options: RunOptions = {}): RunningStatement {
    let conn: DuckDBConnection | undefined
    let interrupted = false
    const result = (async (): Promise<EngineResult> => {
      conn = await this.instance.connect()
      try {
        if (options.timeZone !== undefined) await conn.run(`SET TimeZone = ${lit(options.timeZone)}`)
        if (options.schema !== undefined) await conn.run(`SET search_path = ${lit(options.schema)}`)
        const prepared = await conn.prepare(sql)
        const literals = options.literals ?? []
        if (literals.length > 0) {
          const values = await conn.prepare(`SELECT ${literals.join(', ')}`)
          const reader = await values.runAndReadAll()
          if (reader.columnCount !== prepared.parameterCount) {
            throw new Error(
              `Incorrect number of parameters: expected ${prepared.parameterCount} but found ${reader.columnCount}`,
            )
          }
          prepared.bind(reader.getRows()[0] ?? [], reader.columnTypes())
        }
        if (interrupted) throw new Error('Query was interrupted')
        const reader = await prepared.runAndReadAll()
        return {
          columns: reader.columnNames().map((name, i) => ({ name, type: String(reader.columnTypes()[i]) })),
          rows: reader.getRows(),
        }
      } finally {
        conn.closeSync()
      }
    })()
    return {
      result,
      interrupt: () => {
        interrupted = true
        conn?.interrupt()
      },
    }
  }

  close(): void {
    this.instance.closeSync()
  }
}
