/** The credentials schema of `bigquery`: the fields, their docs and which are secret. */

import type { Static } from 'typebox'
import Type from 'typebox'
import { credentials, host, longText, text } from '../credentials/fields.js'
import { type CredentialRule, httpEndpoint, isJsonObject } from '../credentials/rule-builders.js'
import { ours } from '../credentials/shared-fields.js'

const { Optional } = Type

/** The credentials of `bigquery`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const bigqueryCredentials = credentials('BigQuery credentials', {
  credentials_json: longText('Service account key', 'The service account key file (a JSON object) as a string.', {
    secret: true,
  }),
  project_id: text('Project ID', 'Google Cloud project that runs the queries.'),
  dataset_location: text('Dataset location', 'Location of the datasets, e.g. US or europe-west1.'),
  dataset_id: Optional(text('Dataset ID', 'Limit introspection to this dataset.')),
  apiEndpoint: Optional(
    host('API endpoint', 'An http(s):// URL replacing https://bigquery.googleapis.com (private link, proxy).', ours),
  ),
})

/** The key file, and the endpoint override. */
export const bigqueryRules: CredentialRule<Static<typeof bigqueryCredentials>> = {
  doc: [
    '`credentials_json` must be a JSON object (the content of the service account key file).',
    '`apiEndpoint`, when given, must be an http:// or https:// URL.',
  ],
  check: (c) =>
    isJsonObject(c.credentials_json)
      ? httpEndpoint('apiEndpoint', c.apiEndpoint)
      : { field: 'credentials_json', problem: 'must be a JSON object (the service account key file) as a string' },
}
