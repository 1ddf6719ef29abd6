import { badRequest } from '../../errors.js'
import type { DialectName } from '../types.js'
import type { Dialect } from './base.js'
import { BigqueryDialect } from './bigquery.js'
import { ClickhouseDialect } from './clickhouse.js'
import { DatabricksDialect } from './databricks.js'
import { DuckdbDialect } from './duckdb.js'
import { ElasticsearchDialect } from './elasticsearch/dialect.js'
import { FireboltDialect } from './firebolt.js'
import { MongodbDialect } from './mongodb/dialect.js'
import { MssqlDialect } from './mssql.js'
import { MysqlDialect } from './mysql.js'
import { PostgresDialect } from './postgres.js'
import { SnowflakeDialect } from './snowflake.js'
import { TrinoDialect } from './trino.js'

/** Every dialect the compiler emits, by name. Tests loop over this map. */
export const dialects: ReadonlyMap<DialectName, Dialect> = new Map<DialectName, Dialect>([
  ['postgres', new PostgresDialect()],
  ['mysql', new MysqlDialect()],
  ['clickhouse', new ClickhouseDialect()],
  ['duckdb', new DuckdbDialect()],
  ['mssql', new MssqlDialect()],
  ['databricks', new DatabricksDialect()],
  ['firebolt', new FireboltDialect()],
  ['mongodb', new MongodbDialect()],
  ['snowflake', new SnowflakeDialect()],
  ['bigquery', new BigqueryDialect()],
  ['elasticsearch', new ElasticsearchDialect()],
  ['trino', new TrinoDialect()],
])

export function getDialect(name: DialectName): Dialect {
  const d = dialects.get(name)
  if (d === undefined) throw badRequest(`No SQL dialect ${name}`)
  return d
}
