/** The registry row of `mssql`. */
import { tlsRule } from '../credentials/rule-builders.js'
import type { TypeDefinition } from '../type-definition.js'
import { mssqlCredentials } from './credentials.js'

export const mssql: TypeDefinition<typeof mssqlCredentials, 'mssql'> = {
  credentials: mssqlCredentials,
  rules: tlsRule,
  dialect: 'mssql',
  capabilities: {
    sessionTimeZone: false, // SQL Server has none: the zone is accepted and not applied
    timezoneParam: true,
    fullJoin: true,
    parameterStyle: '@pN',
    tenancyUnit: 'database',
  },
  load: async (credentials, options) => new (await import('./connector.js')).MssqlConnector(credentials, options),
}
