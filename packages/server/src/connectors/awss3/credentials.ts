/** The credentials schema of `awss3`: the fields, their docs and which are secret. */
import Type from 'typebox'
import { credentials, host, text } from '../credentials/fields.js'

const { Optional } = Type

/** The credentials of `awss3`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const awss3Credentials = credentials('Amazon S3 credentials', {
  bucket: text('Bucket', 'S3 bucket holding the files.'),
  region: text('Region', 'AWS region of the bucket, e.g. eu-west-1.'),
  accessKeyId: text('Access key ID', 'AWS access key ID.'),
  secretAccessKey: text('Secret access key', 'AWS secret access key.', { secret: true }),
  prefix: Optional(text('Prefix', 'Only read objects under this key prefix.')),
  endpoint: Optional(
    host('Endpoint', 'An http(s):// URL (S3-compatible service) or file:///dir (a local mirror under FILES_ROOT).'),
  ),
})
