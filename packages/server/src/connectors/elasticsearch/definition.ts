/** The registry rows of `elasticsearch` and `opensearch`: one JSON search request per statement. */
import type { Capabilities, TypeDefinition } from '../type-definition.js'
import { elasticsearchCredentials, elasticsearchRules, opensearchCredentials, opensearchRules } from './credentials.js'

/** elasticsearch, opensearch: one JSON search request per statement (query/dialects/elasticsearch). */
const SEARCH: Capabilities = {
  sessionTimeZone: true, // date_histogram and date ranges take ExecuteOptions.timezone; instants render in it
  timezoneParam: false,
  fullJoin: false, // no joins at all: one index per request
  parameterStyle: 'json',
  tenancyUnit: 'index',
}

export const elasticsearch: TypeDefinition<typeof elasticsearchCredentials, 'elasticsearch'> = {
  credentials: elasticsearchCredentials,
  rules: elasticsearchRules,
  dialect: 'elasticsearch',
  capabilities: SEARCH,
  load: async (credentials, options, type) =>
    new (await import('./connector.js')).SearchConnector(credentials, options, type),
}
export const opensearch: TypeDefinition<typeof opensearchCredentials, 'opensearch'> = {
  credentials: opensearchCredentials,
  rules: opensearchRules,
  dialect: 'elasticsearch',
  capabilities: SEARCH,
  load: async (credentials, options, type) =>
    new (await import('./connector.js')).SearchConnector(credentials, options, type),
}
