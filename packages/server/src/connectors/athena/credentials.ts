/** The credentials schema of `athena`: the fields, their docs and which are secret. */

import type { Static } from 'typebox'
import Type from 'typebox'
import { credentials, host, text } from '../credentials/fields.js'
import { type CredentialRule, httpEndpoint } from '../credentials/rule-builders.js'
import { ours } from '../credentials/shared-fields.js'

const { Optional } = Type

/** The credentials of `athena`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const athenaCredentials = credentials('Amazon Athena credentials', {
  region: text('Region', 'AWS region, e.g. eu-west-1.'),
  accessKeyId: text('Access key ID', 'AWS access key ID.'),
  secretAccessKey: text('Secret access key', 'AWS secret access key.', { secret: true }),
  s3OutputLocation: text('S3 output location', 'Where Athena writes query results: an s3:// URI.'),
  workgroup: Optional(text('Workgroup', 'Athena workgroup (default: primary).')),
  catalog: Optional(text('Catalog', 'Data catalog (default: AwsDataCatalog).')),
  database: Optional(text('Database', 'Default database.')),
  endpoint: Optional(
    host('Endpoint', 'An http(s):// URL replacing https://athena.<region>.amazonaws.com (VPC endpoint, proxy).', ours),
  ),
})

/** The output location, and the endpoint override. */
export const athenaRules: CredentialRule<Static<typeof athenaCredentials>> = {
  doc: ['`s3OutputLocation` must be an s3:// URI.', '`endpoint`, when given, must be an http:// or https:// URL.'],
  check: (c) =>
    /^s3:\/\/./i.test(c.s3OutputLocation)
      ? httpEndpoint('endpoint', c.endpoint)
      : { field: 's3OutputLocation', problem: 'must be an s3:// URI' },
}
