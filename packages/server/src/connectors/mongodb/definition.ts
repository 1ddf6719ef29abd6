/** The registry row of `mongodb`. */
import type { TypeDefinition } from '../type-definition.js'
import { mongodbCredentials, mongodbRules } from './credentials.js'

export const mongodb: TypeDefinition<typeof mongodbCredentials, 'mongodb'> = {
  credentials: mongodbCredentials,
  rules: mongodbRules,
  dialect: 'mongodb',
  capabilities: {
    sessionTimeZone: true, // the zone is an argument of the compiled $dateTrunc/$dateToString; dates render in it
    timezoneParam: false,
    fullJoin: false, // $lookup: LEFT and INNER joins only
    parameterStyle: 'json',
    tenancyUnit: 'database',
  },
  load: async (credentials, options) => new (await import('./connector.js')).MongodbConnector(credentials, options),
}
