/** The credentials schema of `firebolt`: the fields, their docs and which are secret. */

import type { Static } from 'typebox'
import Type from 'typebox'
import { credentials, host, text } from '../credentials/fields.js'
import { type CredentialRule, httpEndpoint } from '../credentials/rule-builders.js'
import { ours } from '../credentials/shared-fields.js'

const { Optional } = Type

/** The credentials of `firebolt`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const fireboltCredentials = credentials('Firebolt credentials', {
  client_id: text('Client ID', 'Service account ID.'),
  client_secret: text('Client secret', 'Service account secret.', { secret: true }),
  account_name: text('Account name', 'Firebolt account.'),
  database: text('Database', 'Database to query.'),
  engine_name: text('Engine name', 'Engine that runs the queries.'),
  apiEndpoint: Optional(
    host('API endpoint', 'An http(s):// URL replacing https://api.app.firebolt.io (private link, proxy).', ours),
  ),
})

/** The endpoint override. */
export const fireboltRules: CredentialRule<Static<typeof fireboltCredentials>> = {
  doc: ['`apiEndpoint`, when given, must be an http:// or https:// URL.'],
  check: (c) => httpEndpoint('apiEndpoint', c.apiEndpoint),
}
