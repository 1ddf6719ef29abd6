/** The registry row of `bigquery`. */
import type { TypeDefinition } from '../type-definition.js'
import { bigqueryCredentials, bigqueryRules } from './credentials.js'

export const bigquery: TypeDefinition<typeof bigqueryCredentials, 'bigquery'> = {
  credentials: bigqueryCredentials,
  rules: bigqueryRules,
  dialect: 'bigquery',
  capabilities: {
    sessionTimeZone: true, // the job's time_zone connection property; TIMESTAMPs rendered in it
    timezoneParam: false, // the API's list of types does not name bigquery
    fullJoin: true,
    parameterStyle: '@pN', // named @p0…, reusable, as SQL Server's
    tenancyUnit: 'dataset',
  },
  load: async (credentials, options) => new (await import('./connector.js')).BigqueryConnector(credentials, options),
}
