/** The credentials schemas of `elasticsearch`, `opensearch`: one per type. */

import type { Static } from 'typebox'
import Type from 'typebox'
import { choice, credentials, flag, host, longText, password, text } from '../credentials/fields.js'
import { both, type CredentialRule, caRule } from '../credentials/rule-builders.js'
import { ours, tlsCa } from '../credentials/shared-fields.js'

const { Optional } = Type

/** OpenSearch on AWS: IAM (SigV4) instead of a user and password. */
const awsIam = {
  awsRegion: Optional(
    text(
      'AWS region',
      'Region of the domain or collection, e.g. eu-west-1. Set it to sign requests with AWS IAM (SigV4).',
      ours,
    ),
  ),
  awsService: Optional(
    Type.Enum(['es', 'aoss'], {
      label: 'AWS service',
      description: '`es` for an OpenSearch Service domain (default), `aoss` for OpenSearch Serverless.',
      addition: true,
    }),
  ),
  awsAccessKeyId: Optional(
    text('AWS access key ID', 'Access key ID of the IAM user or role. Required with awsRegion.', ours),
  ),
  awsSecretAccessKey: Optional(
    text('AWS secret access key', 'Secret access key. Required with awsRegion.', { secret: true, addition: true }),
  ),
  awsSessionToken: Optional(
    longText('AWS session token', 'Session token of temporary credentials.', { secret: true, addition: true }),
  ),
}

/** The fields of elasticsearch and opensearch. */
const searchFields = () => ({
  server_type: choice(['elastic-cloud', 'open-cloud', 'self-managed'], 'Server type', 'Where the cluster runs.'),
  cloud_id: Optional(
    text('Cloud ID', 'Cloud deployment ID. Required when server_type is elastic-cloud or open-cloud.'),
  ),
  server_url: Optional(
    host('Server URL', 'Cluster URL, e.g. https://search.internal:9200. Required for self-managed.'),
  ),
  username: Optional(text('Username', 'Cluster user. Required unless disableAuth is true.')),
  password: Optional(password('Password of the cluster user. Required unless disableAuth is true.')),
  disableAuth: Optional(
    flag('Disable authentication', 'Connect without credentials (default false). true only for self-managed.', {
      default: false,
    }),
  ),
  isIgnoreVerifyCert: Optional(
    flag('Skip certificate verification', 'Accept a certificate that fails verification (default false: verified).'),
  ),
  isIgnoreSsl: Optional(flag('Ignore SSL', 'Connect without TLS.')),
  tlsCaCertificate: tlsCa(),
})

/** The credentials of `elasticsearch`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const elasticsearchCredentials = credentials('Elasticsearch credentials', searchFields())

/** The credentials of `opensearch`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const opensearchCredentials = credentials('OpenSearch credentials', { ...searchFields(), ...awsIam })

const searchEngineFields: CredentialRule<Static<typeof elasticsearchCredentials>> = {
  doc: [
    '`cloud_id` is required when `server_type` is `elastic-cloud` or `open-cloud`.',
    '`server_url` is required when `server_type` is `self-managed`, and must be an http:// or https:// URL.',
    '`disableAuth: true` is only valid when `server_type` is `self-managed` (`false`, the default, is accepted for every server_type).',
    '`username` and `password` are required unless `disableAuth` is `true`.',
    'A field that does not apply to the server_type (`server_url` on a cloud kind, `cloud_id` on self-managed) is accepted and ignored.',
  ],
  check: (c) => {
    if (c.server_type === 'self-managed') {
      if (c.server_url === undefined)
        return { field: 'server_url', problem: 'is required when server_type is self-managed' }
      if (!/^https?:\/\//i.test(c.server_url))
        return { field: 'server_url', problem: 'must be an http:// or https:// URL' }
    } else {
      if (c.cloud_id === undefined)
        return { field: 'cloud_id', problem: `is required when server_type is ${c.server_type}` }
      if (c.disableAuth === true)
        return { field: 'disableAuth', problem: 'is only valid when server_type is self-managed' }
    }
    if (c.disableAuth === true) return undefined
    if (c.username === undefined) return { field: 'username', problem: 'is required unless disableAuth is true' }
    if (c.password === undefined) return { field: 'password', problem: 'is required unless disableAuth is true' }
    return undefined
  },
}

/** The server_type, authentication and CA fields. */
export const elasticsearchRules = both<Static<typeof elasticsearchCredentials>>(searchEngineFields, caRule)

/** Elasticsearch's, and AWS IAM. */
export const opensearchRules: CredentialRule<Static<typeof opensearchCredentials>> = {
  doc: [
    ...elasticsearchRules.doc,
    'AWS IAM (SigV4): with `awsRegion`, requests are signed with `awsAccessKeyId` and `awsSecretAccessKey` (both required; `awsSessionToken` for temporary credentials) for the service `awsService` (`es`, the default, or `aoss`); `server_type` must be `self-managed` (`server_url` is the domain or collection endpoint), and `username`, `password` and `disableAuth` are refused.',
    'An `aws…` field without `awsRegion` is refused.',
  ],
  check: (c) => {
    if (c.awsRegion === undefined) {
      const stray = (['awsService', 'awsAccessKeyId', 'awsSecretAccessKey', 'awsSessionToken'] as const).find(
        (f) => c[f] !== undefined,
      )
      return stray ? { field: stray, problem: 'is only valid with awsRegion' } : elasticsearchRules.check(c)
    }
    if (c.server_type !== 'self-managed')
      return { field: 'awsRegion', problem: 'is only valid when server_type is self-managed' }
    for (const field of ['awsAccessKeyId', 'awsSecretAccessKey'] as const) {
      if (c[field] === undefined) return { field, problem: 'is required with awsRegion' }
    }
    for (const field of ['username', 'password', 'disableAuth'] as const) {
      if (c[field] !== undefined)
        return { field, problem: 'is not allowed with awsRegion (AWS IAM signs the requests)' }
    }
    return elasticsearchRules.check({ ...c, disableAuth: true })
  },
}
