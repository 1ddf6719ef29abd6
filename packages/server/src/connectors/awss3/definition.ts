/** The registry row of `awss3`: S3 objects (or a local mirror) read by DuckDB. */
import { DUCKDB_CAPABILITIES } from '../duckdb/definition.js'
import type { TypeDefinition } from '../type-definition.js'
import { awss3Credentials, awss3Rules } from './credentials.js'

export const awss3: TypeDefinition<typeof awss3Credentials, 'awss3'> = {
  credentials: awss3Credentials,
  rules: awss3Rules,
  dialect: 'duckdb',
  capabilities: DUCKDB_CAPABILITIES,
  // file:///dir: a local mirror read in place; otherwise S3 (the SDK loads only then)
  load: async (credentials, options) =>
    credentials.endpoint?.startsWith('file://')
      ? new (await import('../duckdb/connector.js')).DuckdbConnector({ kind: 'awss3', credentials }, options)
      : (await import('./connector.js')).createS3Connector(credentials, options),
}
