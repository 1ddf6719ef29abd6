/** The credentials schema of `awss3`: the fields, their docs and which are secret. */

import type { Static } from 'typebox'
import Type from 'typebox'
import { credentials, host, text } from '../credentials/fields.js'
import type { CredentialRule } from '../credentials/rule-builders.js'
import { relativePathProblem } from '../duckdb/files-root.js'

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

/** The endpoint and the prefix. */
export const awss3Rules: CredentialRule<Static<typeof awss3Credentials>> = {
  doc: [
    '`endpoint`, when given, must be an http:// or https:// URL, or file:///dir for a local mirror.',
    'A file:/// endpoint must be `FILES_ROOT` or a directory under it, and `bucket` and `prefix` must stay under it: one that resolves elsewhere (`..`, a link) is 400 `INVALID_REQUEST_BODY`, checked by real path whenever the files are opened.',
    '`prefix`, when given, must not contain `..`, hidden segments, backslashes, `%`, glob characters or control characters.',
  ],
  check: (c) => {
    if (c.endpoint !== undefined && !/^(https?|file):\/\//i.test(c.endpoint)) {
      return { field: 'endpoint', problem: 'must be an http://, https:// or file:// URL' }
    }
    const problem = c.prefix ? relativePathProblem(c.prefix) : undefined
    return problem ? { field: 'prefix', problem } : undefined
  },
}
