/** The registry rows of `postgres`, `redshift` and `cockroachdb`: one connector, the postgres dialect. */
import type { Capabilities, TypeDefinition } from '../type-definition.js'
import { cockroachdbCredentials, postgresCredentials, postgresRules, redshiftCredentials } from './credentials.js'

type Family = 'postgres' | 'redshift' | 'cockroachdb'

const capabilities: Capabilities = {
  sessionTimeZone: true,
  timezoneParam: true,
  fullJoin: true,
  parameterStyle: '$n',
  tenancyUnit: 'database',
}

const load: TypeDefinition<typeof postgresCredentials, Family>['load'] = async (credentials, options, type) =>
  new (await import('./connector.js')).PostgresConnector(credentials, options, type)

export const postgres: TypeDefinition<typeof postgresCredentials, 'postgres'> = {
  credentials: postgresCredentials,
  rules: postgresRules,
  dialect: 'postgres',
  capabilities,
  load,
}
export const redshift: TypeDefinition<typeof redshiftCredentials, 'redshift'> = {
  credentials: redshiftCredentials,
  rules: postgresRules,
  dialect: 'postgres',
  capabilities,
  load,
}
export const cockroachdb: TypeDefinition<typeof cockroachdbCredentials, 'cockroachdb'> = {
  credentials: cockroachdbCredentials,
  rules: postgresRules,
  dialect: 'postgres',
  capabilities,
  load,
}
