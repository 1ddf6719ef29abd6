/** The registry rows of `mysql` and `singlestore`: one connector, the mysql dialect. */
import { tlsRule } from '../credentials/rule-builders.js'
import type { Capabilities, TypeDefinition } from '../type-definition.js'
import { mysqlCredentials, singlestoreCredentials } from './credentials.js'

const MYSQL: Capabilities = {
  sessionTimeZone: true,
  timezoneParam: false,
  fullJoin: false,
  parameterStyle: '?',
  tenancyUnit: 'database',
}

/**
 * SingleStore: MySQL's, except the session time zone. Its `time_zone` variable "exists only to
 * conform to MySQL standards. Setting this variable does not do anything" (SingleStore docs,
 * time zone engine variables): the server's `default_time_zone` applies, and the connector
 * sets nothing. Time-zone-converted columns still use the token's zone (CONVERT_TZ).
 */
const SINGLESTORE: Capabilities = { ...MYSQL, sessionTimeZone: false }

const load: TypeDefinition<typeof mysqlCredentials, 'mysql' | 'singlestore'>['load'] = async (
  credentials,
  options,
  type,
) => new (await import('./connector.js')).MysqlConnector(credentials, options, type)

export const mysql: TypeDefinition<typeof mysqlCredentials, 'mysql'> = {
  credentials: mysqlCredentials,
  rules: tlsRule,
  dialect: 'mysql',
  capabilities: MYSQL,
  load,
}
export const singlestore: TypeDefinition<typeof singlestoreCredentials, 'singlestore'> = {
  credentials: singlestoreCredentials,
  rules: tlsRule,
  dialect: 'mysql',
  capabilities: SINGLESTORE,
  load,
}
