/** The registry row of `csv`: files under FILES_ROOT read by DuckDB. */
import type { Capabilities, TypeDefinition } from '../type-definition.js'
import { csvCredentials, csvRules } from './credentials.js'

/** DuckDB's: `csv` here, and `awss3` (its files are read by DuckDB too). */
export const DUCKDB_CAPABILITIES: Capabilities = {
  sessionTimeZone: true,
  timezoneParam: false,
  fullJoin: true,
  parameterStyle: '$n',
  // one in-memory database per datasource; its files are tables of schema `main`
  tenancyUnit: 'schema',
}

export const csv: TypeDefinition<typeof csvCredentials, 'csv'> = {
  credentials: csvCredentials,
  rules: csvRules,
  dialect: 'duckdb',
  capabilities: DUCKDB_CAPABILITIES,
  load: async (credentials, options) =>
    new (await import('./connector.js')).DuckdbConnector({ kind: 'csv', credentials }, options),
}
