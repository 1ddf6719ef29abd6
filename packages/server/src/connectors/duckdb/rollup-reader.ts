/**
 * Reads a rollup's Parquet files with DuckDB, in the engine process (engine-host/child.ts): the
 * server sends the files and the statements compiled on the rollup (query/rollups/) and never
 * loads DuckDB. Each call opens a throwaway in-memory instance, makes the files one view
 * (`main.rollup`), limits file access to exactly those files and switches external access off
 * for good, then runs the statements (SELECT only, values bound) on one connection.
 */
import { DuckDBInstance, quotedIdentifier } from '@duckdb/node-api'
import type { QueryResult } from '../types.js'
import { literal, run } from './engine.js'

export interface ReadRollupArgs {
  /** Absolute paths of the rollup's files (checked by the server to be under its rollups root). */
  readonly files: readonly string[]
  readonly statements: readonly { readonly sql: string; readonly params: readonly unknown[] }[]
  readonly maxRows: number
  readonly timeZone: string
  readonly memoryLimitMb: number
}

const VIEW = `${quotedIdentifier('main')}.${quotedIdentifier('rollup')}`

async function readRollup(args: ReadRollupArgs): Promise<QueryResult[]> {
  if (args.files.length === 0) throw new Error('a rollup read needs at least one file')
  const instance = await DuckDBInstance.create(':memory:', { memory_limit: `${args.memoryLimitMb}MB` })
  try {
    const conn = await instance.connect()
    try {
      const paths = await Promise.all(args.files.map((f) => literal(conn, f)))
      // files of one rollup written at different times: columns matched by name
      await conn.run(`CREATE VIEW ${VIEW} AS SELECT * FROM read_parquet([${paths.join(', ')}], union_by_name = true)`)
      await conn.run(`SET allowed_paths = [${paths.join(', ')}]`)
      await conn.run('SET enable_external_access = false')
      const lease = { conn, timeZone: undefined }
      const out: QueryResult[] = []
      for (const s of args.statements) {
        out.push(
          await run(lease, {
            sql: s.sql,
            params: s.params,
            maxRows: args.maxRows,
            timeZone: args.timeZone,
            selectOnly: true,
          }),
        )
      }
      return out
    } finally {
      conn.closeSync()
    }
  } finally {
    instance.closeSync()
  }
}

export const ROLLUP_READER_HANDLERS = { 'duckdb.readRollup': readRollup } as const
