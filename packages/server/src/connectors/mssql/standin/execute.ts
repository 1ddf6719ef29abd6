/**
 * One statement of a TDS request, run on the session's PostgreSQL connection: translated with
 * its parameters (tsql.ts), its `AT TIME ZONE` names checked against sys.time_zone_info
 * (zones.ts), and answered as SQL Server answers (columns.ts). PostgreSQL's errors become SQL Server's
 * messages for the cases a query of ours can meet: 208 invalid object, 207 invalid column,
 * 102 syntax, 8134 divide by zero; others keep PostgreSQL's text under number 50000.
 */
import type pg from 'pg'
import { colMetadata, rowToken, type SourceColumn, shape } from './columns.js'
import type { Param } from './rpc.js'
import type { ServerMessage } from './tokens.js'
import { translate, UndeclaredVariable, UnsupportedSql } from './tsql.js'
import { ianaOfWindows, invalidZoneMessage } from './zones.js'

export class SqlServerError extends Error {
  constructor(readonly server: ServerMessage) {
    super(server.message)
  }
}

export interface Scope {
  readonly database: string
  readonly schema: string
  readonly databases: readonly string[]
}

export interface Answer {
  /** COLMETADATA and ROW tokens. */
  readonly tokens: Buffer
  readonly rows: number
}

const error = (number: number, message: string, cls = 16, state = 1): SqlServerError =>
  new SqlServerError({ number, state, class: cls, message })

function fromPostgres(err: { code?: string; message: string }): SqlServerError {
  const quotedName = /"([^"]+)"/.exec(err.message)?.[1]
  switch (err.code) {
    case '42P01':
      return error(208, `Invalid object name '${quotedName ?? '?'}'.`)
    case '42703':
      return error(207, `Invalid column name '${quotedName ?? /column (\S+)/.exec(err.message)?.[1] ?? '?'}'.`)
    case '42601':
      return error(102, `Incorrect syntax near '${/near "([^"]*)"/.exec(err.message)?.[1] ?? '?'}'.`, 15)
    case '22012':
      return error(8134, 'Divide by zero error encountered.')
    default:
      return error(50000, err.message)
  }
}

export async function runStatement(
  client: pg.Client,
  text: string,
  params: readonly Param[],
  scope: Scope,
): Promise<Answer> {
  const byName = new Map(params.map((p) => [p.name.replace(/^@/, '').toLowerCase(), p]))
  let sql: string
  try {
    sql = translate(text, {
      ...scope,
      param: (name) => byName.get(name.toLowerCase()),
      zone: (name) => {
        const iana = ianaOfWindows(name)
        if (iana === undefined) throw error(9820, invalidZoneMessage(name))
        return iana
      },
    })
  } catch (err) {
    if (err instanceof UnsupportedSql) throw error(102, err.message, 15)
    if (err instanceof UndeclaredVariable) throw error(137, err.message, 15, 2)
    throw err
  }
  let result: pg.QueryResult<unknown[]>
  try {
    result = await client.query({ text: sql, values: [], rowMode: 'array' })
  } catch (err) {
    throw fromPostgres(err as { code?: string; message: string })
  }
  const rows = result.rows as (string | null)[][]
  const columns = shape(result.fields as readonly SourceColumn[], rows)
  if (columns.length === 0) return { tokens: Buffer.alloc(0), rows: result.rowCount ?? 0 }
  return { tokens: Buffer.concat([colMetadata(columns), ...rows.map((r) => rowToken(columns, r))]), rows: rows.length }
}
