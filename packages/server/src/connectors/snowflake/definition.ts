/** The registry row of `snowflake`. */
import type { TypeDefinition } from '../type-definition.js'
import { snowflakeCredentials, snowflakeRules } from './credentials.js'

export const snowflake: TypeDefinition<typeof snowflakeCredentials, 'snowflake'> = {
  credentials: snowflakeCredentials,
  rules: snowflakeRules,
  dialect: 'snowflake',
  capabilities: {
    sessionTimeZone: true, // ALTER SESSION SET TIMEZONE
    timezoneParam: false, // the API does not name snowflake for params.timezone
    fullJoin: true,
    parameterStyle: ':n',
    tenancyUnit: 'database', // the session's database; "SCHEMA"."TABLE" resolves in it
  },
  load: async (credentials, options) => new (await import('./connector.js')).SnowflakeConnector(credentials, options),
}
