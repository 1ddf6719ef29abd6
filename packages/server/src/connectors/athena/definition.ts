/** The registry row of `athena`. */
import type { TypeDefinition } from '../type-definition.js'
import { athenaCredentials, athenaRules } from './credentials.js'

export const athena: TypeDefinition<typeof athenaCredentials, 'athena'> = {
  credentials: athenaCredentials,
  rules: athenaRules,
  dialect: 'trino', // Athena engine v3 speaks Trino SQL
  capabilities: {
    sessionTimeZone: false, // Athena has no per-query session time zone: accepted, not applied
    timezoneParam: false,
    fullJoin: true,
    parameterStyle: '?', // ExecutionParameters, rendered as typed literals (athena/README.md)
    tenancyUnit: 'database', // a database of the data catalog
  },
  load: async (credentials, options) => new (await import('./connector.js')).AthenaConnector(credentials, options),
}
