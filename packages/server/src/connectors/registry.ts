/**
 * Datasource type → everything the server knows about it, in one table: its credentials schema,
 * and for the types this build can query, the dialect, the capabilities and the connector
 * loader. The table is a mapped type over DATASOURCE_TYPES: adding a type fails to compile until
 * it has a row, and each row's loader receives the static type of that row's schema (no casts).
 *
 * Driver packages load lazily: a row's `load` imports the connector module (and with it pg,
 * mysql2, @clickhouse/client, @duckdb/node-api, mssql, @aws-sdk/client-s3 or another vendor SDK) on the first call that needs it, so a
 * deployment never loads a driver it never uses.
 */
import { CREDENTIAL_SCHEMAS, type CredentialsByType } from './credentials/schemas.js'
import { connectionError, notSupported } from './errors.js'
import type { Connector, ConnectorOptions, DatasourceType, DialectName, QueryResult, TableInfo } from './types.js'

/** How `ExecuteOptions.params` are referenced in the SQL a connector runs (params[0] shown). */
export type ParameterStyle =
  /** `$1`: Postgres, DuckDB. */
  | '$n'
  /** `?`, positional, each used once: MySQL. */
  | '?'
  /** `{p0:String}`, named and typed, bound by the server from `param_p0`: ClickHouse. */
  | '{pN:Type}'
  /** `@p0`, named: SQL Server, BigQuery. */
  | '@pN'
  /** `:p0`, named and typed by the request (`parameters: [{ name, value, type }]`): Databricks. */
  | ':pN'
  /** `:1`, numbered from 1, reusable: Snowflake (bound by snowflake-sdk). */
  | ':n'
  /**
   * `{"$param":0}`: the statement is a JSON request (search engines, document stores), and the
   * connector puts params[0] in that object's place as a value (never into a string).
   */
  | 'json'

/** What a DATABASE-tenancy clientId names: `databases()` lists these, `ExecuteOptions.database` picks one. */
export type TenancyUnit = 'database' | 'schema' | 'dataset' | 'index'

/** What services may rely on, per type: read these instead of listing engines. */
export interface Capabilities {
  /**
   * The connector sets the session time zone from `ExecuteOptions.timezone`: instants come back
   * rendered in it (and the engine's date functions follow it).
   */
  readonly sessionTimeZone: boolean
  /**
   * A guest token's `params.timezone` is passed on as the session time zone. The API names the
   * types it applies to: clickhouse, trino, redshift, cockroachdb, postgres, mssql. (For every
   * type the token's zone still drives date presets and time-zone-converted columns.)
   */
  readonly timezoneParam: boolean
  /** FULL [OUTER] JOIN exists: a datamart relationship may use it. */
  readonly fullJoin: boolean
  readonly parameterStyle: ParameterStyle
  readonly tenancyUnit: TenancyUnit
}

/** A type this build has a connector for. */
export interface LiveType<T extends DatasourceType> {
  readonly dialect: DialectName
  readonly capabilities: Capabilities
  /** Imports the connector module (and its driver) and builds the connector: on first use only. */
  readonly load: (credentials: CredentialsByType[T], options: ConnectorOptions, type: T) => Promise<Connector>
  /** Why this build cannot serve these credentials (checked before anything loads), else undefined. */
  readonly refuse?: (credentials: CredentialsByType[T]) => string | undefined
}

export interface RegistryEntry<T extends DatasourceType> {
  /** The TypeBox schema the API validates this type's credentials with. */
  readonly credentials: (typeof CREDENTIAL_SCHEMAS)[T]
  /** How the type is served: its dialect, capabilities and (lazily loaded) connector. */
  readonly connector: LiveType<T>
}

const POSTGRES: Capabilities = {
  sessionTimeZone: true,
  timezoneParam: true,
  fullJoin: true,
  parameterStyle: '$n',
  tenancyUnit: 'database',
}
const MYSQL: Capabilities = {
  sessionTimeZone: true,
  timezoneParam: false,
  fullJoin: false,
  parameterStyle: '?',
  tenancyUnit: 'database',
}
const DUCKDB: Capabilities = {
  sessionTimeZone: true,
  timezoneParam: false,
  fullJoin: true,
  parameterStyle: '$n',
  // one in-memory database per datasource; its files are tables of schema `main`
  tenancyUnit: 'schema',
}

const postgres: LiveType<'postgres' | 'redshift' | 'cockroachdb'> = {
  dialect: 'postgres',
  capabilities: POSTGRES,
  load: async (credentials, options, type) =>
    new (await import('./postgres/connector.js')).PostgresConnector(credentials, options, type),
}

/**
 * SingleStore: MySQL's, except the session time zone. Its `time_zone` variable "exists only to
 * conform to MySQL standards. Setting this variable does not do anything" (SingleStore docs,
 * time zone engine variables): the server's `default_time_zone` applies, and the connector
 * sets nothing. Time-zone-converted columns still use the token's zone (CONVERT_TZ).
 */
const SINGLESTORE: Capabilities = { ...MYSQL, sessionTimeZone: false }

const loadMysql: LiveType<'mysql' | 'singlestore'>['load'] = async (credentials, options, type) =>
  new (await import('./mysql/connector.js')).MysqlConnector(credentials, options, type)
const mysql: LiveType<'mysql'> = { dialect: 'mysql', capabilities: MYSQL, load: loadMysql }
const singlestore: LiveType<'singlestore'> = { dialect: 'mysql', capabilities: SINGLESTORE, load: loadMysql }

/** elasticsearch, opensearch: one JSON search request per statement (query/dialects/elasticsearch). */
const SEARCH: Capabilities = {
  sessionTimeZone: true, // date_histogram and date ranges take ExecuteOptions.timezone; instants render in it
  timezoneParam: false,
  fullJoin: false, // no joins at all: one index per request
  parameterStyle: 'json',
  tenancyUnit: 'index',
}

const search: LiveType<'elasticsearch' | 'opensearch'> = {
  dialect: 'elasticsearch',
  capabilities: SEARCH,
  load: async (credentials, options, type) =>
    new (await import('./elasticsearch/connector.js')).SearchConnector(credentials, options, type),
}

export const REGISTRY: { readonly [T in DatasourceType]: RegistryEntry<T> } = {
  postgres: { credentials: CREDENTIAL_SCHEMAS.postgres, connector: postgres },
  redshift: { credentials: CREDENTIAL_SCHEMAS.redshift, connector: postgres },
  cockroachdb: { credentials: CREDENTIAL_SCHEMAS.cockroachdb, connector: postgres },
  mysql: { credentials: CREDENTIAL_SCHEMAS.mysql, connector: mysql },
  singlestore: { credentials: CREDENTIAL_SCHEMAS.singlestore, connector: singlestore },
  clickhouse: {
    credentials: CREDENTIAL_SCHEMAS.clickhouse,
    connector: {
      dialect: 'clickhouse',
      capabilities: {
        sessionTimeZone: true, // session_timezone, ClickHouse 23.6+; older servers: their own zone only
        timezoneParam: true,
        fullJoin: true,
        parameterStyle: '{pN:Type}',
        tenancyUnit: 'database',
      },
      load: async (credentials, options) =>
        new (await import('./clickhouse/connector.js')).ClickhouseConnector(credentials, options),
    },
  },
  mssql: {
    credentials: CREDENTIAL_SCHEMAS.mssql,
    connector: {
      dialect: 'mssql',
      capabilities: {
        sessionTimeZone: false, // SQL Server has none: the zone is accepted and not applied
        timezoneParam: true,
        fullJoin: true,
        parameterStyle: '@pN',
        tenancyUnit: 'database',
      },
      load: async (credentials, options) =>
        new (await import('./mssql/connector.js')).MssqlConnector(credentials, options),
    },
  },
  csv: {
    credentials: CREDENTIAL_SCHEMAS.csv,
    connector: {
      dialect: 'duckdb',
      capabilities: DUCKDB,
      load: async (credentials, options) =>
        new (await import('./duckdb/connector.js')).DuckdbConnector({ kind: 'csv', credentials }, options),
    },
  },
  awss3: {
    credentials: CREDENTIAL_SCHEMAS.awss3,
    connector: {
      dialect: 'duckdb',
      capabilities: DUCKDB,
      // file:///dir: a local mirror read in place; otherwise S3 (the SDK loads only then)
      load: async (credentials, options) =>
        credentials.endpoint?.startsWith('file://')
          ? new (await import('./duckdb/connector.js')).DuckdbConnector({ kind: 'awss3', credentials }, options)
          : (await import('./awss3/connector.js')).createS3Connector(credentials, options),
    },
  },
  snowflake: {
    credentials: CREDENTIAL_SCHEMAS.snowflake,
    connector: {
      dialect: 'snowflake',
      capabilities: {
        sessionTimeZone: true, // ALTER SESSION SET TIMEZONE
        timezoneParam: false, // the API does not name snowflake for params.timezone
        fullJoin: true,
        parameterStyle: ':n',
        tenancyUnit: 'database', // the session's database; "SCHEMA"."TABLE" resolves in it
      },
      load: async (credentials, options) =>
        new (await import('./snowflake/connector.js')).SnowflakeConnector(credentials, options),
    },
  },
  bigquery: {
    credentials: CREDENTIAL_SCHEMAS.bigquery,
    connector: {
      dialect: 'bigquery',
      capabilities: {
        sessionTimeZone: true, // the job's time_zone connection property; TIMESTAMPs rendered in it
        timezoneParam: false, // the API's list of types does not name bigquery
        fullJoin: true,
        parameterStyle: '@pN', // named @p0…, reusable, as SQL Server's
        tenancyUnit: 'dataset',
      },
      load: async (credentials, options) =>
        new (await import('./bigquery/connector.js')).BigqueryConnector(credentials, options),
    },
  },
  databricks: {
    credentials: CREDENTIAL_SCHEMAS.databricks,
    connector: {
      dialect: 'databricks',
      capabilities: {
        sessionTimeZone: false, // the Statement Execution API keeps no session: nothing to SET TIME ZONE on
        timezoneParam: false,
        fullJoin: true,
        parameterStyle: ':pN',
        tenancyUnit: 'schema', // a schema of the warehouse's default catalog (the request's `schema`)
      },
      load: async (credentials, options) =>
        new (await import('./databricks/connector.js')).DatabricksConnector(credentials, options),
    },
  },
  elasticsearch: { credentials: CREDENTIAL_SCHEMAS.elasticsearch, connector: search },
  opensearch: { credentials: CREDENTIAL_SCHEMAS.opensearch, connector: search },
  mongodb: {
    credentials: CREDENTIAL_SCHEMAS.mongodb,
    connector: {
      dialect: 'mongodb',
      capabilities: {
        sessionTimeZone: true, // the zone is an argument of the compiled $dateTrunc/$dateToString; dates render in it
        timezoneParam: false,
        fullJoin: false, // $lookup: LEFT and INNER joins only
        parameterStyle: 'json',
        tenancyUnit: 'database',
      },
      load: async (credentials, options) =>
        new (await import('./mongodb/connector.js')).MongodbConnector(credentials, options),
    },
  },
  trino: {
    credentials: CREDENTIAL_SCHEMAS.trino,
    connector: {
      dialect: 'trino',
      capabilities: {
        sessionTimeZone: true, // X-Trino-Time-Zone
        timezoneParam: true,
        fullJoin: true,
        parameterStyle: '?', // rendered as typed literals: Trino's protocol has no bind (trino/README.md)
        tenancyUnit: 'schema', // a schema of the configured catalog
      },
      load: async (credentials, options) =>
        new (await import('./trino/connector.js')).TrinoConnector(credentials, options),
    },
  },
  athena: {
    credentials: CREDENTIAL_SCHEMAS.athena,
    connector: {
      dialect: 'trino', // Athena engine v3 speaks Trino SQL
      capabilities: {
        sessionTimeZone: false, // Athena has no per-query session time zone: accepted, not applied
        timezoneParam: false,
        fullJoin: true,
        parameterStyle: '?', // ExecutionParameters, rendered as typed literals (athena/README.md)
        tenancyUnit: 'database', // a database of the data catalog
      },
      load: async (credentials, options) =>
        new (await import('./athena/connector.js')).AthenaConnector(credentials, options),
    },
  },
  firebolt: {
    credentials: CREDENTIAL_SCHEMAS.firebolt,
    connector: {
      dialect: 'firebolt',
      capabilities: {
        sessionTimeZone: true, // the time_zone setting, sent with every statement
        timezoneParam: false, // not among the types the API names
        fullJoin: true, // FULL [OUTER] JOIN (SELECT reference, JOIN clause)
        parameterStyle: '$n', // fb_numeric: bound by the server
        tenancyUnit: 'database',
      },
      load: async (credentials, options) =>
        new (await import('./firebolt/connector.js')).FireboltConnector(credentials, options),
    },
  },
}

/** The dialect each type speaks. */
export function dialectOf(type: DatasourceType): DialectName {
  return REGISTRY[type].connector.dialect
}

/** What a type's connector supports. */
export function capabilitiesOf(type: DatasourceType): Capabilities {
  return REGISTRY[type].connector.capabilities
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
  const live: LiveType<T> = REGISTRY[type].connector
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
