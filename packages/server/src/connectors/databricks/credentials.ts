/** The credentials schema of `databricks`: the fields, their docs and which are secret. */
import { credentials, host, text } from '../credentials/fields.js'

/** The credentials of `databricks`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const databricksCredentials = credentials('Databricks credentials', {
  serverHostname: host(
    'Server hostname',
    'Workspace hostname, e.g. dbc-1234.cloud.databricks.com; also host:port or an http(s):// URL (endpoint override).',
  ),
  httpPath: text('HTTP path', 'HTTP path of the SQL warehouse: /sql/1.0/warehouses/<id> (clusters are not served).'),
  token: text('Access token', 'Personal access token.', { secret: true }),
})
