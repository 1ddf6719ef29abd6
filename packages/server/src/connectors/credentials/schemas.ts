/**
 * One TypeBox schema per datasource type (docs/datasources.md#field-reference). The schema is
 * the single source of truth: structural validation, docs/datasources.md and the secret fields.
 * Rules the table states in words (sshTunnel, snowflake's service, the search engines'
 * server_type …) are in rules.ts, beside these schemas.
 */
import Type, { type Static, type TObject } from 'typebox'
import { TLS_MODES } from '../shared/tls.js'
import type { DatasourceType } from '../types.js'
import { choice, credentials, flag, host, longText, password, port, text } from './fields.js'

const { Optional } = Type
/** Marks a field that is our addition to the hosted API's fields. */
const ours = { addition: true } as const

/**
 * The CA field (docs/datasources.md#tls): every type that connects over TLS to a server the
 * company runs, TCP or HTTP.
 */
const tlsCa = () =>
  Optional(
    longText(
      'TLS CA certificate',
      "PEM certificate(s) of the CA that signs the server's certificate (a private CA); without it, the public roots.",
      ours,
    ),
  )

/** TLS of the engines we reach over TCP: one naming for every type (shared/tls.ts). */
const tlsFields = (whenSilent: string) => ({
  tlsMode: Optional(
    choice(
      TLS_MODES,
      'TLS mode',
      `off: plain TCP; required: encrypted, the certificate is not checked; verify: encrypted, the certificate must chain to a trusted CA and name the host. Default: ${whenSilent}`,
      ours,
    ),
  ),
  tlsCaCertificate: tlsCa(),
  tlsClientCertificate: Optional(
    longText(
      'TLS client certificate',
      'PEM client certificate, for servers that authenticate clients by certificate.',
      ours,
    ),
  ),
  tlsClientKey: Optional(
    longText('TLS client key', 'PEM private key (unencrypted) of tlsClientCertificate.', { secret: true, ...ours }),
  ),
})

/** What the connector does when the credentials name no TLS mode (shared/tls.ts resolveTlsMode, silentTlsMode). */
const SILENT_VERIFY =
  'off when sslMode is false; otherwise verify, except off for a loopback host (localhost, 127.0.0.0/8, ::1) and for a datasource saved before TLS was verified by default.'
const SILENT_VERIFY_NO_SSLMODE =
  'verify, except off for a loopback host (localhost, 127.0.0.0/8, ::1) and for a datasource saved before TLS was verified by default.'

/** postgres, redshift, cockroachdb: the same fields, engine-specific wording. */
const postgresFamily = (engine: string, defaultPort: number) =>
  credentials(`${engine} credentials`, {
    host: host('Host', `Hostname or IP address of the ${engine} server.`),
    port: port('Port', `TCP port of the ${engine} server (usually ${defaultPort}).`),
    username: text('Username', 'Database user.'),
    password: password('Password of the database user.'),
    database: text('Database', 'Database to connect to.'),
    schema: text('Schema', 'Default schema for introspection and queries.'),
    sslMode: Optional(
      flag('SSL', 'Connect over TLS: true is tlsMode verify (unless tlsMode says otherwise), false is tlsMode off.'),
    ),
    ...tlsFields(SILENT_VERIFY),
    sshTunnel: Optional(choice(['enable', 'disable'], 'SSH tunnel', 'Connect through an SSH bastion host.')),
    sshHost: Optional(host('SSH host', 'Bastion host. Required when sshTunnel is enable.')),
    sshPort: Optional(port('SSH port', 'Bastion SSH port (usually 22). Required when sshTunnel is enable.')),
    sshUsername: Optional(text('SSH username', 'User on the bastion host. Required when sshTunnel is enable.')),
    sshPrivateKey: Optional(
      longText('SSH private key', 'PEM private key for the bastion. Required when sshTunnel is enable.', {
        secret: true,
      }),
    ),
  })

/** The hosted API's four fields of mysql, mongodb, clickhouse (and singlestore). */
const serverFields = (engine: string) => ({
  host: host('Host', `Hostname or IP address of the ${engine} server.`),
  port: port('Port', `TCP port of the ${engine} server.`),
  user: text('User', 'Database user.'),
  password: password('Password of the database user.'),
})

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

export const CREDENTIAL_SCHEMAS = {
  snowflake: credentials('Snowflake credentials', {
    host: host('Host', 'Account host, e.g. xy12345.eu-west-1.snowflakecomputing.com.'),
    username: text('Username', 'Snowflake user.'),
    role: text('Role', 'Role the session uses.'),
    warehouse: text('Warehouse', 'Virtual warehouse that runs the queries.'),
    database: text('Database', 'Database to connect to.'),
    schema: text('Schema', 'Default schema.'),
    service: choice(['username/password', 'Key-pair authentication'], 'Authentication', 'How the user authenticates.'),
    password: Optional(password('Password of the user. Required when service is username/password.')),
    privateKey: Optional(
      longText('Private key', 'PEM private key. Required when service is Key-pair authentication.', { secret: true }),
    ),
    privateKeyPass: Optional(
      text('Private key passphrase', 'Passphrase of an encrypted private key.', { secret: true }),
    ),
  }),
  postgres: postgresFamily('PostgreSQL', 5432),
  redshift: postgresFamily('Redshift', 5439),
  cockroachdb: postgresFamily('CockroachDB', 26257),
  mysql: credentials('MySQL credentials', {
    ...serverFields('MySQL'),
    database: Optional(text('Database', 'Default database (else every database the user can reach).', ours)),
    ...tlsFields(SILENT_VERIFY_NO_SSLMODE),
  }),
  mongodb: credentials('MongoDB credentials', {
    host: Optional(
      host('Host', 'Hostname or IP address of the MongoDB server. Required unless connectionString is given.'),
    ),
    port: Optional(port('Port', 'TCP port of the MongoDB server. Required unless connectionString is given.')),
    user: Optional(text('User', 'Database user. Required unless connectionString is given.')),
    password: Optional(password('Password of the database user.')),
    authSource: Optional(
      text(
        'Authentication database',
        "Database the user was created in (default `admin`, or the connection string's).",
        ours,
      ),
    ),
    connectionString: Optional(
      text(
        'Connection string',
        'A mongodb:// or mongodb+srv:// URI with its options (tls, authSource, replicaSet …), as MongoDB Atlas shows it; read by the driver.',
        { secret: true, addition: true, maxLength: 4000 },
      ),
    ),
    // a connection string cannot name the CA (tlsCAFile would read this server's disk): it goes here, and turns TLS on
    tlsCaCertificate: tlsCa(),
  }),
  clickhouse: credentials('ClickHouse credentials', {
    ...serverFields('ClickHouse'),
    database: Optional(text('Database', 'Default database (else `default`).', ours)),
    ssl: Optional(flag('SSL', 'Use https instead of http (the certificate is verified).', ours)),
    tlsCaCertificate: tlsCa(),
  }),
  singlestore: credentials('SingleStore credentials', {
    ...serverFields('SingleStore'),
    database: text('Database', 'Database to connect to.'),
    ...tlsFields(SILENT_VERIFY_NO_SSLMODE),
  }),
  bigquery: credentials('BigQuery credentials', {
    credentials_json: longText('Service account key', 'The service account key file (a JSON object) as a string.', {
      secret: true,
    }),
    project_id: text('Project ID', 'Google Cloud project that runs the queries.'),
    dataset_location: text('Dataset location', 'Location of the datasets, e.g. US or europe-west1.'),
    dataset_id: Optional(text('Dataset ID', 'Limit introspection to this dataset.')),
    apiEndpoint: Optional(
      host('API endpoint', 'An http(s):// URL replacing https://bigquery.googleapis.com (private link, proxy).', ours),
    ),
  }),
  databricks: credentials('Databricks credentials', {
    serverHostname: host(
      'Server hostname',
      'Workspace hostname, e.g. dbc-1234.cloud.databricks.com; also host:port or an http(s):// URL (endpoint override).',
    ),
    httpPath: text('HTTP path', 'HTTP path of the SQL warehouse: /sql/1.0/warehouses/<id> (clusters are not served).'),
    token: text('Access token', 'Personal access token.', { secret: true }),
  }),
  elasticsearch: credentials('Elasticsearch credentials', searchFields()),
  opensearch: credentials('OpenSearch credentials', { ...searchFields(), ...awsIam }),
  mssql: credentials('SQL Server credentials', {
    server: host('Server', 'Hostname or IP address of the SQL Server.'),
    port: port('Port', 'TCP port of the SQL Server (usually 1433).'),
    user: text('User', 'SQL login.'),
    password: password('Password of the SQL login.'),
    database: Optional(text('Database', 'Database to connect to (else the login default).')),
    isDisableDatabase: Optional(flag('Disable database', 'Ignore `database`: use the login default database.')),
    readOnlyIntent: Optional(flag('Read-only intent', 'Connect with ApplicationIntent=ReadOnly (read replicas).')),
    ...tlsFields('verify.'),
  }),
  awss3: credentials('Amazon S3 credentials', {
    bucket: text('Bucket', 'S3 bucket holding the files.'),
    region: text('Region', 'AWS region of the bucket, e.g. eu-west-1.'),
    accessKeyId: text('Access key ID', 'AWS access key ID.'),
    secretAccessKey: text('Secret access key', 'AWS secret access key.', { secret: true }),
    prefix: Optional(text('Prefix', 'Only read objects under this key prefix.')),
    endpoint: Optional(
      host('Endpoint', 'An http(s):// URL (S3-compatible service) or file:///dir (a local mirror under FILES_ROOT).'),
    ),
  }),
  csv: credentials('CSV credentials', {
    path: text(
      'Path',
      'Relative to FILES_ROOT: a directory (each .csv, .parquet or .json file in it is a table) or one file.',
    ),
    delimiter: Optional(text('Delimiter', 'CSV delimiter, 1-4 characters (default: detected).', { maxLength: 4 })),
  }),
  firebolt: credentials('Firebolt credentials', {
    client_id: text('Client ID', 'Service account ID.'),
    client_secret: text('Client secret', 'Service account secret.', { secret: true }),
    account_name: text('Account name', 'Firebolt account.'),
    database: text('Database', 'Database to query.'),
    engine_name: text('Engine name', 'Engine that runs the queries.'),
    apiEndpoint: Optional(
      host('API endpoint', 'An http(s):// URL replacing https://api.app.firebolt.io (private link, proxy).', ours),
    ),
  }),
  athena: credentials('Amazon Athena credentials', {
    region: text('Region', 'AWS region, e.g. eu-west-1.'),
    accessKeyId: text('Access key ID', 'AWS access key ID.'),
    secretAccessKey: text('Secret access key', 'AWS secret access key.', { secret: true }),
    s3OutputLocation: text('S3 output location', 'Where Athena writes query results: an s3:// URI.'),
    workgroup: Optional(text('Workgroup', 'Athena workgroup (default: primary).')),
    catalog: Optional(text('Catalog', 'Data catalog (default: AwsDataCatalog).')),
    database: Optional(text('Database', 'Default database.')),
    endpoint: Optional(
      host(
        'Endpoint',
        'An http(s):// URL replacing https://athena.<region>.amazonaws.com (VPC endpoint, proxy).',
        ours,
      ),
    ),
  }),
  trino: credentials('Trino credentials', {
    host: host('Host', 'Hostname or IP address of the Trino coordinator.'),
    port: port('Port', 'TCP port of the coordinator (usually 8080, or 443 with TLS).'),
    user: text('User', 'Trino user.'),
    password: Optional(password('Password, for password authentication (Trino accepts it over https only).')),
    catalog: text('Catalog', 'Catalog to query.'),
    schema: Optional(text('Schema', 'Default schema.')),
    ssl: Optional(flag('SSL', 'Use https (the certificate is verified).')),
    tlsCaCertificate: tlsCa(),
  }),
} as const satisfies Record<DatasourceType, TObject>

/** The credentials each type accepts once validated: what its connector receives (types.ts). */
export type CredentialsByType = { [T in DatasourceType]: Static<(typeof CREDENTIAL_SCHEMAS)[T]> }
