/**
 * What a datasource type is, as its folder declares it (`connectors/<folder>/definition.ts`): the
 * credentials schema, the dialect, the capabilities services rely on, and the lazily loaded
 * connector. `registry.ts` holds one such definition per type.
 */
import type { Static, TObject } from 'typebox'
import type { CredentialRule } from './credentials/rule-builders.js'
import type { Connector, ConnectorOptions, DatasourceType, DialectName } from './types.js'

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

/**
 * One datasource type: `S` is its credentials schema, `T` the type (or the types, when one
 * loader serves several) the loader is called with.
 */
export interface TypeDefinition<S extends TObject, T extends DatasourceType> {
  /** The TypeBox schema the API validates this type's credentials with (docs and forms read it too). */
  readonly credentials: S
  /** What the schema alone cannot say (one field requires another …), documented under the type's field table. */
  readonly rules?: CredentialRule<Static<S>>
  readonly dialect: DialectName
  readonly capabilities: Capabilities
  /** Imports the connector module (and its driver) and builds the connector: on first use only. */
  readonly load: (credentials: Static<S>, options: ConnectorOptions, type: T) => Promise<Connector>
  /** Why this build cannot serve these credentials (checked before anything loads), else undefined. */
  readonly refuse?: (credentials: Static<S>) => string | undefined
}
