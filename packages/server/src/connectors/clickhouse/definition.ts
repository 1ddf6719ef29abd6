/** The registry row of `clickhouse`. */
import { caRule } from '../credentials/rule-builders.js'
import type { TypeDefinition } from '../type-definition.js'
import { clickhouseCredentials } from './credentials.js'

export const clickhouse: TypeDefinition<typeof clickhouseCredentials, 'clickhouse'> = {
  credentials: clickhouseCredentials,
  rules: caRule,
  dialect: 'clickhouse',
  capabilities: {
    sessionTimeZone: true, // session_timezone, ClickHouse 23.6+; older servers: their own zone only
    timezoneParam: true,
    fullJoin: true,
    parameterStyle: '{pN:Type}',
    tenancyUnit: 'database',
  },
  load: async (credentials, options) => new (await import('./connector.js')).ClickhouseConnector(credentials, options),
}
