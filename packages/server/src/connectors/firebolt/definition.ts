/** The registry row of `firebolt`. */
import type { TypeDefinition } from '../type-definition.js'
import { fireboltCredentials, fireboltRules } from './credentials.js'

export const firebolt: TypeDefinition<typeof fireboltCredentials, 'firebolt'> = {
  credentials: fireboltCredentials,
  rules: fireboltRules,
  dialect: 'firebolt',
  capabilities: {
    sessionTimeZone: true, // the time_zone setting, sent with every statement
    timezoneParam: false, // not among the types the API names
    fullJoin: true, // FULL [OUTER] JOIN (SELECT reference, JOIN clause)
    parameterStyle: '$n', // fb_numeric: bound by the server
    tenancyUnit: 'database',
  },
  load: async (credentials, options) => new (await import('./connector.js')).FireboltConnector(credentials, options),
}
