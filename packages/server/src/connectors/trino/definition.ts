/** The registry row of `trino`. */
import { caRule } from '../credentials/rule-builders.js'
import type { TypeDefinition } from '../type-definition.js'
import { trinoCredentials } from './credentials.js'

export const trino: TypeDefinition<typeof trinoCredentials, 'trino'> = {
  credentials: trinoCredentials,
  rules: caRule,
  dialect: 'trino',
  capabilities: {
    sessionTimeZone: true, // X-Trino-Time-Zone
    timezoneParam: true,
    fullJoin: true,
    parameterStyle: '?', // rendered as typed literals: Trino's protocol has no bind (trino/README.md)
    tenancyUnit: 'schema', // a schema of the configured catalog
  },
  load: async (credentials, options) => new (await import('./connector.js')).TrinoConnector(credentials, options),
}
