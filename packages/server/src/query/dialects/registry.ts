import { badRequest } from '../../errors.js'
import type { DialectName } from '../types.js'
import type { Dialect } from './base.js'
import { ClickhouseDialect } from './clickhouse.js'
import { DuckdbDialect } from './duckdb.js'
import { MssqlDialect } from './mssql.js'
import { MysqlDialect } from './mysql.js'
import { PostgresDialect } from './postgres.js'
import { TrinoDialect } from './trino.js'

/** Every dialect the compiler emits, by name. Tests loop over this map. */
export const dialects: ReadonlyMap<DialectName, Dialect> = new Map<DialectName, Dialect>([
  ['postgres', new PostgresDialect()],
  ['mysql', new MysqlDialect()],
  ['clickhouse', new ClickhouseDialect()],
  ['duckdb', new DuckdbDialect()],
  ['mssql', new MssqlDialect()],
  ['trino', new TrinoDialect()],
])

export function getDialect(name: DialectName): Dialect {
  const d = dialects.get(name)
  if (d === undefined) throw badRequest(`No SQL dialect ${name}`)
  return d
}
