/** The registry row of `databricks`. */
import type { TypeDefinition } from '../type-definition.js'
import { databricksCredentials } from './credentials.js'

export const databricks: TypeDefinition<typeof databricksCredentials, 'databricks'> = {
  credentials: databricksCredentials,
  dialect: 'databricks',
  capabilities: {
    sessionTimeZone: false, // the Statement Execution API keeps no session: nothing to SET TIME ZONE on
    timezoneParam: false,
    fullJoin: true,
    parameterStyle: ':pN',
    tenancyUnit: 'schema', // a schema of the warehouse's default catalog (the request's `schema`)
  },
  load: async (credentials, options) => new (await import('./connector.js')).DatabricksConnector(credentials, options),
}
