/**
 * Datasource type → connector. The switch is exhaustive (`assertNever`): adding a type to
 * DATASOURCE_TYPES fails to compile until it is handled here. Driver packages load lazily: the
 * connector module (and with it pg, mysql2, @clickhouse/client, @duckdb/node-api or mssql) is
 * imported on the first call that needs it, so a deployment never loads a driver it never uses.
 */
import { notSupported } from './errors.js'
import type {
  AwsS3Credentials,
  ClickhouseCredentials,
  Connector,
  ConnectorOptions,
  CsvCredentials,
  DatasourceType,
  DialectName,
  MssqlCredentials,
  MysqlCredentials,
  PostgresCredentials,
  QueryResult,
  TableInfo,
} from './types.js'

export function assertNever(value: never): never {
  throw new Error(`Unhandled value: ${String(value)}`)
}

/** The dialect each type speaks, or undefined when it has no connector yet. */
export function dialectOf(type: DatasourceType): DialectName | undefined {
  switch (type) {
    case 'postgres':
    case 'redshift':
    case 'cockroachdb':
      return 'postgres'
    case 'mysql':
    case 'singlestore':
      return 'mysql'
    case 'clickhouse':
      return 'clickhouse'
    case 'csv':
    case 'awss3':
      return 'duckdb'
    case 'mssql':
      return 'mssql'
    case 'snowflake':
    case 'bigquery':
    case 'databricks':
    case 'elasticsearch':
    case 'opensearch':
    case 'mongodb':
    case 'trino':
    case 'athena':
    case 'firebolt':
      return undefined
    default:
      return assertNever(type)
  }
}

/**
 * A connector for the datasource. Throws DATASOURCE_NOT_SUPPORTED (400) for types without one
 * (and for awss3 without a local `file:///` endpoint). Credentials are validated upstream.
 */
export function createConnector(type: DatasourceType, credentials: unknown, options: ConnectorOptions): Connector {
  switch (type) {
    case 'postgres':
    case 'redshift':
    case 'cockroachdb':
      return lazy('postgres', async () => {
        const { PostgresConnector } = await import('./postgres/connector.js')
        return new PostgresConnector(credentials as PostgresCredentials, options, type)
      })
    case 'mysql':
    case 'singlestore':
      return lazy('mysql', async () => {
        const { MysqlConnector } = await import('./mysql/connector.js')
        return new MysqlConnector(credentials as MysqlCredentials, options, type)
      })
    case 'clickhouse':
      return lazy('clickhouse', async () => {
        const { ClickhouseConnector } = await import('./clickhouse/connector.js')
        return new ClickhouseConnector(credentials as ClickhouseCredentials, options)
      })
    case 'csv':
      return lazy('duckdb', async () => {
        const { DuckdbConnector } = await import('./duckdb/connector.js')
        return new DuckdbConnector({ kind: 'csv', credentials: credentials as CsvCredentials }, options)
      })
    case 'awss3': {
      const s3 = credentials as AwsS3Credentials
      if (typeof s3?.endpoint !== 'string' || !s3.endpoint.startsWith('file://')) {
        throw notSupported(
          'awss3 datasources are not supported yet with a real S3 endpoint (this build has no S3 reader); a local mirror works with endpoint file:///<dir>',
        )
      }
      return lazy('duckdb', async () => {
        const { DuckdbConnector } = await import('./duckdb/connector.js')
        return new DuckdbConnector({ kind: 'awss3', credentials: s3 }, options)
      })
    }
    case 'mssql':
      return lazy('mssql', async () => {
        const { MssqlConnector } = await import('./mssql/connector.js')
        return new MssqlConnector(credentials as MssqlCredentials, options)
      })
    case 'snowflake':
    case 'bigquery':
    case 'databricks':
    case 'elasticsearch':
    case 'opensearch':
    case 'mongodb':
    case 'trino':
    case 'athena':
    case 'firebolt':
      throw notSupported(`${type} datasources are not supported yet by this server (no connector for ${type})`)
    default:
      return assertNever(type)
  }
}

/** Defers loading the connector module (and its driver) to the first call. */
function lazy(dialect: DialectName, load: () => Promise<Connector>): Connector {
  let loaded: Promise<Connector> | undefined
  const get = () => {
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
      const connector = await loaded?.catch(() => undefined)
      await connector?.close()
    },
  }
}
