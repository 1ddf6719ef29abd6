/** The credentials schema of `bigquery`: the fields, their docs and which are secret. */
import Type from 'typebox'
import { credentials, host, longText, text } from '../credentials/fields.js'
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
