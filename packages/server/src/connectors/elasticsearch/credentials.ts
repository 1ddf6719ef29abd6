/** The credentials schemas of `elasticsearch`, `opensearch`: one per type. */
import Type from 'typebox'
import { choice, credentials, flag, host, longText, password, text } from '../credentials/fields.js'
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
