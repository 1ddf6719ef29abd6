/**
 * Datasource type → everything the server knows about it, in one table of one line per type.
 * Each line is the definition its folder exports (`<folder>/definition.ts`: the credentials
 * schema, the dialect, the capabilities and the connector loader). The table is a mapped type
 * over DATASOURCE_TYPES: adding a type fails to compile until it has a line, and each line's
 * loader receives the static type of that line's schema (no casts).
 *
 * Driver packages load lazily: a definition's `load` imports the connector module (and with it
 * pg, mysql2, @clickhouse/client, @duckdb/node-api, mssql, @aws-sdk/client-s3 or another vendor
 * SDK) on the first call that needs it, so a deployment never loads a driver it never uses.
 */
import type { Static } from 'typebox'
import { athena } from './athena/definition.js'
import { awss3 } from './awss3/definition.js'
import { bigquery } from './bigquery/definition.js'
import { clickhouse } from './clickhouse/definition.js'
import { databricks } from './databricks/definition.js'
import { csv } from './duckdb/definition.js'
import { elasticsearch, opensearch } from './elasticsearch/definition.js'
import { connectionError, notSupported } from './errors.js'
import { firebolt } from './firebolt/definition.js'
import { mongodb } from './mongodb/definition.js'
import { mssql } from './mssql/definition.js'
import { mysql, singlestore } from './mysql/definition.js'
import { cockroachdb, postgres, redshift } from './postgres/definition.js'
import { snowflake } from './snowflake/definition.js'
import { trino } from './trino/definition.js'
import type { Capabilities, TypeDefinition } from './type-definition.js'
import type { Connector, ConnectorOptions, DatasourceType, DialectName, QueryResult, TableInfo } from './types.js'

export type { Capabilities, ParameterStyle, TenancyUnit, TypeDefinition } from './type-definition.js'

/** One line per type: the definition its folder exports. */
const TABLE = {
  snowflake,
  postgres,
  redshift,
  cockroachdb,
  mysql,
  mongodb,
  clickhouse,
  singlestore,
  bigquery,
  databricks,
  elasticsearch,
  opensearch,
  mssql,
  awss3,
  csv,
  firebolt,
  athena,
  trino,
}

/** Each type's credentials schema (the folders' `credentials.ts`). */
export type CredentialSchemas = { readonly [T in DatasourceType]: (typeof TABLE)[T]['credentials'] }
/** The credentials each type accepts once validated: what its connector receives (types.ts). */
export type CredentialsByType = { [T in DatasourceType]: Static<CredentialSchemas[T]> }

type Row<T extends DatasourceType> = TypeDefinition<CredentialSchemas[T], T>

/** The table, typed per type: a type without a line, or a line of another type's schema, does not compile. */
export const REGISTRY: { readonly [T in DatasourceType]: Row<T> } = TABLE

/** The dialect each type speaks. */
export function dialectOf(type: DatasourceType): DialectName {
  return REGISTRY[type].dialect
}

/** What a type's connector supports. */
export function capabilitiesOf(type: DatasourceType): Capabilities {
  return REGISTRY[type].capabilities
}

/**
 * A connector for the datasource. Throws DATASOURCE_NOT_SUPPORTED (400) for credentials its
 * type refuses (what this server cannot do). Credentials are validated against the row's
 * schema before they get here.
 */
export function createConnector<T extends DatasourceType>(
  type: T,
  credentials: CredentialsByType[T],
  options: ConnectorOptions,
): Connector {
  const live: Row<T> = REGISTRY[type]
  const refusal = live.refuse?.(credentials)
  if (refusal !== undefined) throw notSupported(refusal)
  return lazy(live.dialect, () => live.load(credentials, options, type))
}

/**
 * Defers loading the connector module (and its driver) to the first call. Once closed, every
 * call rejects with DATASOURCE_CONNECTION_ERROR: a closed connector never opens pools again (a
 * datasource that changed gets a new connector).
 */
function lazy(dialect: DialectName, load: () => Promise<Connector>): Connector {
  let loaded: Promise<Connector> | undefined
  let closed = false
  const get = () => {
    if (closed) return Promise.reject(connectionError('the connector is closed'))
    loaded ??= load()
    return loaded
  }
  return {
    dialect,
    test: async () => (await get()).test(),
    introspect: async (database?: string): Promise<TableInfo[]> => (await get()).introspect(database),
    databases: async () => (await get()).databases(),
    execute: async (sql, options): Promise<QueryResult> => (await get()).execute(sql, options),
    close: async () => {
      closed = true
      const connector = await loaded?.catch(() => undefined)
      await connector?.close()
    },
  }
}
