/**
 * The contract between the server and a customer's warehouse. One folder per datasource
 * family implements `Connector`; the registry (registry.ts) maps each datasource type to its
 * credentials schema, dialect, capabilities and connector.
 * Connectors never read the environment and never build SQL from values: compiled SQL
 * arrives with its bound parameters in the dialect's placeholder style.
 */

/** Every datasource type (docs/datasources.md). */
export const DATASOURCE_TYPES = [
  'snowflake',
  'postgres',
  'redshift',
  'cockroachdb',
  'mysql',
  'mongodb',
  'clickhouse',
  'singlestore',
  'bigquery',
  'databricks',
  'elasticsearch',
  'opensearch',
  'mssql',
  'awss3',
  'csv',
  'firebolt',
  'athena',
  'trino',
] as const
export type DatasourceType = (typeof DATASOURCE_TYPES)[number]

// The engine owns the types of what it compiles over; connectors produce them.
export type { ColumnInfo, DataType, DialectName, TableInfo } from '../query/types.js'

import type { DataType, DialectName, TableInfo } from '../query/types.js'
import type { CredentialsByType } from './credentials/schemas.js'
import type { EngineHost } from './engine-host/supervisor.js'
import type { SilentTlsPolicy } from './shared/tls.js'

export interface ExecuteOptions {
  /** Bound values, in the order of the placeholders (or by name p0, p1 … for ClickHouse). */
  readonly params: readonly unknown[]
  /** Cancel the query (on the database side too) after this long. */
  readonly timeoutMs: number
  /** Return at most this many rows; `truncated` says when more existed. */
  readonly maxRows: number
  /** IANA name: the session time zone for this query (engines that support one). */
  readonly timezone?: string
  /** DATABASE tenancy: run in this database (must be one of `databases()`). */
  readonly database?: string
  readonly signal?: AbortSignal
}

export interface QueryResult {
  readonly columns: readonly { readonly name: string; readonly dataType: DataType }[]
  readonly rows: readonly Record<string, unknown>[]
  readonly truncated: boolean
}

export interface StreamOptions extends ExecuteOptions {
  /** Rows handed over at a time (at most); the connector reads the next batch while one is handled. */
  readonly batchRows: number
}

/**
 * Rows of a streamed result, converted exactly as `execute` converts them, each row its values
 * in the order of `columns` (no object per row: a build only reads them by position).
 */
export interface RowBatch {
  readonly columns: QueryResult['columns']
  readonly rows: readonly (readonly unknown[])[]
}

/** The end of a streamed result: how many rows were handed over, and whether `maxRows` cut it. */
export interface StreamResult {
  readonly columns: QueryResult['columns']
  readonly rows: number
  readonly truncated: boolean
}

/** Handles one batch; the stream waits for it (a rejection stops the statement and is thrown as it is). */
export type BatchHandler = (batch: RowBatch) => Promise<void>

export interface Connector {
  readonly dialect: DialectName
  /** Opens a connection and runs a trivial query; throws a typed ApiError on failure. */
  test(): Promise<void>
  /** Tables and columns with types, of the given database (default: the configured one). */
  introspect(database?: string): Promise<TableInfo[]>
  /** Databases (or schemas, where they are one) the credentials can reach: DATABASE tenancy. */
  databases(): Promise<string[]>
  execute(sql: string, options: ExecuteOptions): Promise<QueryResult>
  /**
   * Optional: runs `sql` as `execute` does (the same rows, values converted the same way, the
   * same limits) but hands the rows over in batches as they arrive, holding at most two batches
   * (the one handled and the next one, read meanwhile). Connectors without it are streamed
   * through `execute` (`streamRows`, shared/stream.ts), the whole result held first.
   */
  stream?(sql: string, options: StreamOptions, onBatch: BatchHandler): Promise<StreamResult>
  /** Ends every pool this connector opened. */
  close(): Promise<void>
}

export interface ConnectorOptions {
  /** Connection attempts give up after this long (the API answers within 10 s). */
  readonly connectTimeoutMs: number
  /** Connections per pool (one pool per datasource and per tenant database). */
  readonly poolMax: number
  /** Our addition: tenant-database pools kept open at once (DATABASE tenancy), default 16. */
  readonly maxTenantPools?: number
  /** DuckDB (csv, awss3): memory one datasource's instance may use, its loaded files included; default 1024. */
  readonly duckdbMemoryLimitMb?: number
  /**
   * csv, and awss3 with a file:/// endpoint: the one directory (FILES_ROOT) whose files they may
   * read; without it they read none.
   */
  readonly filesRoot?: string
  /**
   * awss3 over S3: the directory under which each datasource's objects are cached
   * (`<cacheDir>/s3/<hash of the credentials>`); default the OS temp dir's `strata-cache`.
   */
  readonly cacheDir?: string
  /** awss3 over S3: total bytes of data files one datasource may cache, default 512 MiB. */
  readonly s3CacheMaxBytes?: number
  /**
   * The engine process DuckDB (csv, awss3) runs in, shared by every datasource of the server;
   * without one a DuckDB connector starts its own and stops it on close().
   */
  readonly engine?: EngineHost
  /**
   * What credentials that name no TLS mode get (postgres family, mysql, singlestore): the
   * datasource row's policy (shared/tls.ts silentTlsMode); `verify` when not given.
   */
  readonly silentTls?: SilentTlsPolicy
}

/**
 * Credentials of each family: the static types of their TypeBox schemas (each folder's
 * credentials.ts, read through the registry), validated by the API before they get here.
 */
export type PostgresCredentials = CredentialsByType['postgres' | 'redshift' | 'cockroachdb']
/** mysql, singlestore (singlestore requires `database`; for mysql it is our optional addition). */
export type MysqlCredentials = CredentialsByType['mysql' | 'singlestore']
export type ClickhouseCredentials = CredentialsByType['clickhouse']
export type MssqlCredentials = CredentialsByType['mssql']
/** databricks: `serverHostname` (host, host:port or URL), `httpPath` of a SQL warehouse, `token`. */
export type DatabricksCredentials = CredentialsByType['databricks']
/** mongodb: the hosted API's host, port, user, password (host/port are the endpoint). */
export type MongodbCredentials = CredentialsByType['mongodb']
/** snowflake: `host` is the account host, or `host:port`, or an http(s):// URL (docs/datasources.md#snowflake). */
export type SnowflakeCredentials = CredentialsByType['snowflake']
/** bigquery: a service account key (JSON), the project running the jobs, the datasets' location. */
export type BigqueryCredentials = CredentialsByType['bigquery']
/**
 * csv (our definition): local CSV/Parquet/JSON files read by DuckDB. Each file is a table in
 * schema `main`; `path` is a directory (every *.csv, *.parquet, *.json in it) or one file.
 */
export type CsvCredentials = CredentialsByType['csv']
/**
 * awss3 (our definition). An http(s) `endpoint` (or none: AWS in `region`) is S3, read through
 * a local cache (awss3/); `file:///dir` reads a local mirror under FILES_ROOT directly.
 */
export type AwsS3Credentials = CredentialsByType['awss3']
/** firebolt: a service account (client credentials), the account, database and engine. */
export type FireboltCredentials = CredentialsByType['firebolt']
