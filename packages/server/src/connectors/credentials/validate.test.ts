import { readFileSync, writeFileSync } from 'node:fs'
import { Compile } from 'typebox/compile'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../errors.js'
import type { TenancySettings } from '../../query/tenancy/settings.js'
import { DATASOURCE_TYPES, type DatasourceType } from '../types.js'
import { BEGIN_MARKER, END_MARKER, renderCredentialReference } from './docs.js'
import { describeFields } from './fields.js'
import { credentialSchema } from './schemas.js'
import {
  DatasourceBody,
  mergeTenancySettings,
  redactCredentials,
  secretFields,
  validateCredentials,
  validateTenancySettings,
} from './validate.js'

const pg = {
  host: 'db.internal',
  port: 5432,
  username: 'reader',
  password: 's3cret',
  database: 'shop',
  schema: 'public',
}
const ssh = {
  sshTunnel: 'enable',
  sshHost: 'bastion.internal',
  sshPort: 22,
  sshUsername: 'tunnel',
  sshPrivateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----',
}
const server = { host: 'db.internal', port: 3306, user: 'reader', password: 's3cret' }
const search = { server_type: 'elastic-cloud', cloud_id: 'deploy:abc', username: 'elastic', password: 'pw' }
const aws = { region: 'eu-west-1', accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI' }

/** A valid credentials object of every type, with every optional field where that is allowed. */
const VALID: Record<DatasourceType, Record<string, unknown>> = {
  snowflake: {
    name: 'snow',
    host: 'xy12345.eu-west-1.snowflakecomputing.com',
    username: 'ANALYST',
    role: 'READER',
    warehouse: 'COMPUTE_WH',
    database: 'SHOP',
    schema: 'PUBLIC',
    service: 'username/password',
    password: 'pw',
  },
  postgres: { name: 'pg', ...pg, sslMode: true, ...ssh },
  redshift: { name: 'rs', ...pg, port: 5439, sslMode: false, sshTunnel: 'disable' },
  cockroachdb: { name: 'crdb', ...pg, port: 26257 },
  mysql: { name: 'my', ...server, database: 'shop' },
  mongodb: { name: 'mongo', ...server, port: 27017, authSource: 'analytics' },
  clickhouse: { name: 'ch', ...server, port: 8123, database: 'default', ssl: false },
  singlestore: { name: 's2', ...server, database: 'shop' },
  bigquery: {
    name: 'bq',
    credentials_json: '{"type":"service_account","project_id":"p"}',
    project_id: 'p',
    dataset_location: 'US',
    dataset_id: 'shop',
  },
  databricks: { name: 'dbx', serverHostname: 'dbc-1.cloud.databricks.com', httpPath: '/sql/1.0/w/1', token: 'dapi' },
  elasticsearch: { name: 'es', ...search, isIgnoreVerifyCert: false, isIgnoreSsl: false },
  opensearch: { name: 'os', server_type: 'self-managed', server_url: 'https://os.internal:9200', disableAuth: true },
  mssql: {
    name: 'sql',
    server: 'sql.internal',
    port: 1433,
    user: 'sa',
    password: 'pw',
    database: 'shop',
    isDisableDatabase: false,
    readOnlyIntent: true,
  },
  awss3: { name: 's3', bucket: 'data', ...aws, prefix: 'exports/', endpoint: 'file:///srv/mirror' },
  csv: { name: 'files', path: 'sales/2024', delimiter: ';' },
  firebolt: {
    name: 'fb',
    client_id: 'id',
    client_secret: 'secret',
    account_name: 'acme',
    database: 'db',
    engine_name: 'e',
  },
  athena: { name: 'ath', ...aws, s3OutputLocation: 's3://results/', workgroup: 'primary', catalog: 'c', database: 'd' },
  trino: {
    name: 'tr',
    host: 'trino.internal',
    port: 443,
    user: 'u',
    password: 'p',
    catalog: 'hive',
    schema: 's',
    ssl: true,
  },
}

const fieldsOf = (type: DatasourceType) => describeFields(credentialSchema(type))
const without = (o: Record<string, unknown>, ...keys: string[]) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)))

/** Runs `fn`, expecting the 400 INVALID_REQUEST_BODY ApiError; returns its message. */
function failure(fn: () => unknown): string {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ code: 'INVALID_REQUEST_BODY', status: 400 })
    return (err as ApiError).message
  }
  throw new Error('expected a validation failure')
}
const credentialsFailure = (type: DatasourceType, credentials: unknown) =>
  failure(() => validateCredentials(type, credentials))

describe('validateCredentials: every type', () => {
  it.each(DATASOURCE_TYPES)('%s: accepts a complete credentials object and returns a clean copy', (type) => {
    const result = validateCredentials(type, VALID[type])
    expect(result).toEqual(VALID[type])
    expect(result).not.toBe(VALID[type])
  })

  it.each(DATASOURCE_TYPES)('%s: accepts the required fields alone', (type) => {
    const required = fieldsOf(type).filter((f) => f.required)
    const minimal = Object.fromEntries(required.map((f) => [f.name, VALID[type][f.name]]))
    const needed: Partial<Record<DatasourceType, Record<string, unknown>>> = {
      snowflake: { password: 'pw' },
      elasticsearch: { cloud_id: 'x', username: 'u', password: 'p' },
      opensearch: { server_url: 'http://os:9200', username: 'u', password: 'p' },
      mongodb: { connectionString: 'mongodb+srv://cluster0.example.net/?retryWrites=true' },
    }
    expect(() => validateCredentials(type, { ...minimal, ...needed[type] })).not.toThrow()
  })

  const missing = DATASOURCE_TYPES.flatMap((type) =>
    fieldsOf(type)
      .filter((f) => f.required)
      .map((f) => [type, f.name] as const),
  )
  it.each(missing)('%s: missing %s is refused, naming it', (type, field) => {
    expect(credentialsFailure(type, without(VALID[type], field))).toBe(`credentials.${field} is required`)
  })

  it.each(DATASOURCE_TYPES)('%s: an unknown field is refused, naming it', (type) => {
    // (a type whose valid credentials lack `password` is told it: see the suggestion test below)
    expect(credentialsFailure(type, { ...VALID[type], passwd: 'x' })).toMatch(
      new RegExp(`^credentials\\.passwd is not a known field for ${type}( \\(did you mean "password"\\?\\))?$`),
    )
  })

  const wrongType = DATASOURCE_TYPES.flatMap((type) =>
    fieldsOf(type).map((f) => {
      const s = f.schema as Record<string, unknown>
      const bad = Array.isArray(s.enum) ? 'nope' : s.type === 'string' ? 42 : s.type === 'boolean' ? 'true' : '5432'
      return [type, f.name, bad] as const
    }),
  )
  it.each(wrongType)('%s: %s = %j is refused, naming the field', (type, field, bad) => {
    expect(credentialsFailure(type, { ...VALID[type], [field]: bad })).toMatch(
      new RegExp(`^credentials\\.${field} must `),
    )
  })
})

describe('validateCredentials: field rules', () => {
  const port = 'must be an integer between 1 and 65535'
  it.each([
    ['postgres', { port: 0 }, `credentials.port ${port}`],
    ['postgres', { port: 65536 }, `credentials.port ${port}`],
    ['redshift', { port: 5439.5 }, `credentials.port ${port}`],
    ['cockroachdb', { port: '26257' }, `credentials.port ${port}`],
    ['postgres', { sshPort: 70000 }, `credentials.sshPort ${port}`],
    ['mysql', { port: -1 }, `credentials.port ${port}`],
    ['mongodb', { port: 1e6 }, `credentials.port ${port}`],
    ['clickhouse', { port: 0 }, `credentials.port ${port}`],
    ['singlestore', { port: 65536 }, `credentials.port ${port}`],
    ['mssql', { port: 'x' }, `credentials.port ${port}`],
    ['trino', { port: 0 }, `credentials.port ${port}`],
    ['postgres', { host: '' }, 'credentials.host must be a non-empty string of at most 1000 characters'],
    ['mssql', { server: '' }, 'credentials.server must be a non-empty string of at most 1000 characters'],
    [
      'databricks',
      { serverHostname: '' },
      'credentials.serverHostname must be a non-empty string of at most 1000 characters',
    ],
    ['snowflake', { host: 'h'.repeat(1001) }, 'credentials.host must be a non-empty string of at most 1000 characters'],
    ['postgres', { sslMode: 'true' }, 'credentials.sslMode must be a boolean'],
    ['postgres', { sshTunnel: 'on' }, "credentials.sshTunnel must be one of 'enable', 'disable'"],
    ['mssql', { isDisableDatabase: 'yes' }, 'credentials.isDisableDatabase must be a boolean'],
    ['mssql', { readOnlyIntent: 1 }, 'credentials.readOnlyIntent must be a boolean'],
    ['mssql', { database: '' }, 'credentials.database must be a non-empty string of at most 1000 characters'],
    ['clickhouse', { ssl: 'true' }, 'credentials.ssl must be a boolean'],
    ['mysql', { database: 7 }, 'credentials.database must be a non-empty string of at most 1000 characters'],
    ['csv', { delimiter: '' }, 'credentials.delimiter must be a non-empty string of at most 4 characters'],
    ['csv', { delimiter: '|||||' }, 'credentials.delimiter must be a non-empty string of at most 4 characters'],
    [
      'snowflake',
      { service: 'oauth' },
      "credentials.service must be one of 'username/password', 'Key-pair authentication'",
    ],
    [
      'elasticsearch',
      { server_type: 'cloud' },
      "credentials.server_type must be one of 'elastic-cloud', 'open-cloud', 'self-managed'",
    ],
    ['opensearch', { disableAuth: 'true' }, 'credentials.disableAuth must be a boolean'],
    ['opensearch', { isIgnoreVerifyCert: 'no' }, 'credentials.isIgnoreVerifyCert must be a boolean'],
    ['elasticsearch', { isIgnoreSsl: 0 }, 'credentials.isIgnoreSsl must be a boolean'],
    ['trino', { ssl: 'yes' }, 'credentials.ssl must be a boolean'],
  ] as const)('%s %j → %s', (type, patch, message) => {
    expect(credentialsFailure(type, { ...VALID[type], ...patch })).toBe(message)
  })

  it.each(['postgres', 'redshift', 'cockroachdb'] as const)(
    '%s: ssh fields only matter when sshTunnel is enable',
    (type) => {
      const base = { ...VALID[type], sshTunnel: 'disable' }
      expect(() =>
        validateCredentials(type, without(base, 'sshHost', 'sshPort', 'sshUsername', 'sshPrivateKey')),
      ).not.toThrow()
      expect(() => validateCredentials(type, without({ ...VALID[type] }, 'sshTunnel'))).not.toThrow()
    },
  )

  const sshCases = (['postgres', 'redshift', 'cockroachdb'] as const).flatMap((type) =>
    (['sshHost', 'sshPort', 'sshUsername', 'sshPrivateKey'] as const).map((field) => [type, field] as const),
  )
  it.each(sshCases)('%s: sshTunnel enable without %s is refused', (type, field) => {
    const credentials = without({ name: 'x', ...pg, ...ssh }, field)
    expect(credentialsFailure(type, credentials)).toBe(`credentials.${field} is required when sshTunnel is enable`)
  })

  describe('TLS fields', () => {
    // a real certificate and key (test-only, from the stand-ins' fixed TLS pair)
    const cert = readFileSync(new URL('../../../test/standins/tls-cert.pem', import.meta.url), 'utf8')
    const key = readFileSync(new URL('../../../test/standins/tls-key.pem', import.meta.url), 'utf8')
    const broken = cert.replace(/^(-----BEGIN CERTIFICATE-----\n)M/, '$1X')

    it.each([
      [
        'postgres',
        { tlsCaCertificate: 'not a pem' },
        'tlsCaCertificate must be a PEM certificate (-----BEGIN CERTIFICATE-----)',
      ],
      [
        'mysql',
        { tlsCaCertificate: broken },
        'tlsCaCertificate must be a PEM certificate: a certificate block could not be read',
      ],
      [
        'mssql',
        { tlsClientCertificate: cert, tlsClientKey: 'nope' },
        'tlsClientKey must be an unencrypted PEM private key',
      ],
      ['singlestore', { tlsClientCertificate: cert }, 'tlsClientKey is required with tlsClientCertificate'],
      ['redshift', { tlsClientKey: key }, 'tlsClientCertificate is required with tlsClientKey'],
      [
        'clickhouse',
        { tlsCaCertificate: 'x' },
        'tlsCaCertificate must be a PEM certificate (-----BEGIN CERTIFICATE-----)',
      ],
      ['trino', { tlsCaCertificate: 'x' }, 'tlsCaCertificate must be a PEM certificate (-----BEGIN CERTIFICATE-----)'],
    ] as const)('%s %j is refused', (type, patch, message) => {
      expect(credentialsFailure(type, { ...VALID[type], ...patch })).toBe(`credentials.${message}`)
    })

    it.each(['postgres', 'mysql', 'mssql'] as const)(
      '%s accepts a CA and a client certificate with its key',
      (type) => {
        const credentials = {
          ...VALID[type],
          tlsMode: 'verify',
          tlsCaCertificate: cert,
          tlsClientCertificate: cert,
          tlsClientKey: key,
        }
        expect(validateCredentials(type, credentials)).toEqual(credentials)
      },
    )
  })

  describe('snowflake service', () => {
    const keyPair = { ...without(VALID.snowflake, 'password'), service: 'Key-pair authentication' }
    it.each([
      [without(VALID.snowflake, 'password'), 'credentials.password is required when service is username/password'],
      [{ ...VALID.snowflake, password: '' }, 'credentials.password is required when service is username/password'],
      [keyPair, 'credentials.privateKey is required when service is Key-pair authentication'],
      [
        { ...keyPair, privateKeyPass: 'pp' },
        'credentials.privateKey is required when service is Key-pair authentication',
      ],
      [
        { ...keyPair, privateKey: '' },
        'credentials.privateKey must be a non-empty string of at most 100000 characters',
      ],
    ])('%j → %s', (credentials, message) => {
      expect(credentialsFailure('snowflake', credentials)).toBe(message)
    })
    it('accepts key-pair authentication with or without a passphrase', () => {
      expect(() => validateCredentials('snowflake', { ...keyPair, privateKey: 'PEM' })).not.toThrow()
      expect(() =>
        validateCredentials('snowflake', { ...keyPair, privateKey: 'PEM', privateKeyPass: 'pp' }),
      ).not.toThrow()
    })
  })

  describe.each(['elasticsearch', 'opensearch'] as const)('%s server_type', (type) => {
    const cloud = { name: 'c', server_type: 'open-cloud', cloud_id: 'id', username: 'u', password: 'p' }
    const self = {
      name: 's',
      server_type: 'self-managed',
      server_url: 'http://search:9200',
      username: 'u',
      password: 'p',
    }
    it.each([
      [
        { ...without(cloud, 'cloud_id'), server_type: 'elastic-cloud' },
        'credentials.cloud_id is required when server_type is elastic-cloud',
      ],
      [without(cloud, 'cloud_id'), 'credentials.cloud_id is required when server_type is open-cloud'],
      [without(self, 'server_url'), 'credentials.server_url is required when server_type is self-managed'],
      [{ ...self, server_url: 'search:9200' }, 'credentials.server_url must be an http:// or https:// URL'],
      [{ ...cloud, disableAuth: true }, 'credentials.disableAuth is only valid when server_type is self-managed'],
      [
        { ...cloud, server_type: 'elastic-cloud', disableAuth: true },
        'credentials.disableAuth is only valid when server_type is self-managed',
      ],
      [without(cloud, 'username'), 'credentials.username is required unless disableAuth is true'],
      [without(self, 'password'), 'credentials.password is required unless disableAuth is true'],
      [
        { ...without(self, 'username'), disableAuth: false },
        'credentials.username is required unless disableAuth is true',
      ],
    ])('%j → %s', (credentials, message) => {
      expect(credentialsFailure(type, credentials)).toBe(message)
    })
    it('accepts self-managed without credentials when disableAuth is true, and disableAuth false anywhere', () => {
      expect(() =>
        validateCredentials(type, { ...without(self, 'username', 'password'), disableAuth: true }),
      ).not.toThrow()
      expect(() => validateCredentials(type, { ...cloud, disableAuth: false })).not.toThrow()
      expect(() => validateCredentials(type, { ...self, disableAuth: false })).not.toThrow()
    })
  })

  it.each([
    [
      'bigquery',
      { credentials_json: 'not json' },
      'credentials.credentials_json must be a JSON object (the service account key file) as a string',
    ],
    [
      'bigquery',
      { credentials_json: '[1]' },
      'credentials.credentials_json must be a JSON object (the service account key file) as a string',
    ],
    // read as a request body is: nested past 32 levels, or with a prototype-poisoning key
    [
      'bigquery',
      { credentials_json: `{"a":${'['.repeat(7_000)}${']'.repeat(7_000)}}` },
      'credentials.credentials_json must be a JSON object (the service account key file) as a string',
    ],
    [
      'bigquery',
      { credentials_json: '{"type":"service_account","__proto__":{"polluted":true}}' },
      'credentials.credentials_json must be a JSON object (the service account key file) as a string',
    ],
    [
      'bigquery',
      { credentials_json: { type: 'service_account' } },
      'credentials.credentials_json must be a non-empty string of at most 100000 characters',
    ],
    [
      'bigquery',
      { dataset_location: '' },
      'credentials.dataset_location must be a non-empty string of at most 1000 characters',
    ],
    ['firebolt', { client_id: '' }, 'credentials.client_id must be a non-empty string of at most 1000 characters'],
    ['awss3', { endpoint: 'minio:9000' }, 'credentials.endpoint must be an http://, https:// or file:// URL'],
    ['awss3', { prefix: '../x' }, 'credentials.prefix must not contain ".." (it must stay under FILES_ROOT)'],
    ['csv', { path: '/etc' }, 'credentials.path must be relative to FILES_ROOT, not absolute'],
    ['csv', { path: 'a/../../x' }, 'credentials.path must not contain ".." (it must stay under FILES_ROOT)'],
    ['athena', { s3OutputLocation: 'results/' }, 'credentials.s3OutputLocation must be an s3:// URI'],
    ['athena', { endpoint: 'athena.local:443' }, 'credentials.endpoint must be an http:// or https:// URL'],
    ['bigquery', { apiEndpoint: 'file:///etc' }, 'credentials.apiEndpoint must be an http:// or https:// URL'],
    ['firebolt', { apiEndpoint: 'api.firebolt.io' }, 'credentials.apiEndpoint must be an http:// or https:// URL'],
  ] as const)('%s %j → %s', (type, patch, message) => {
    expect(credentialsFailure(type, { ...VALID[type], ...patch })).toBe(message)
  })

  it('firebolt requires client_id', () => {
    expect(credentialsFailure('firebolt', without(VALID.firebolt, 'client_id'))).toBe(
      'credentials.client_id is required',
    )
  })
  it('bigquery dataset_id is optional', () => {
    expect(() => validateCredentials('bigquery', without(VALID.bigquery, 'dataset_id'))).not.toThrow()
  })
})

describe('validateCredentials: name and shape', () => {
  const nameMessage = 'credentials.name must be a non-empty string of at most 100 characters'
  it.each([
    [without(VALID.postgres, 'name'), 'credentials.name is required'],
    [{ ...VALID.postgres, name: '' }, nameMessage],
    [{ ...VALID.postgres, name: '   ' }, nameMessage],
    [{ ...VALID.postgres, name: 'n'.repeat(101) }, nameMessage],
    [{ ...VALID.postgres, name: 42 }, nameMessage],
    [null, 'credentials must be an object'],
    [[VALID.postgres], 'credentials must be an object'],
    ['postgres://u:p@h/db', 'credentials must be an object'],
  ])('%j → %s', (credentials, message) => {
    expect(credentialsFailure('postgres', credentials)).toBe(message)
  })

  it('accepts a name of 100 characters, case kept', () => {
    expect(validateCredentials('postgres', { ...VALID.postgres, name: `Ab${'c'.repeat(98)}` }).name).toHaveLength(100)
  })

  it('treats null as absent: optional fields are dropped, required ones are missing', () => {
    expect(validateCredentials('mysql', { ...VALID.mysql, database: null })).toEqual(without(VALID.mysql, 'database'))
    expect(credentialsFailure('mysql', { ...VALID.mysql, host: null })).toBe('credentials.host is required')
  })

  it('reports an unknown field before anything else and shortens a long one', () => {
    expect(credentialsFailure('mysql', { name: 'x', hots: 'db' })).toBe(
      'credentials.hots is not a known field for mysql (did you mean "host"?)',
    )
    expect(credentialsFailure('mysql', { ...VALID.mysql, ['k'.repeat(200)]: 1 })).toBe(
      `credentials.${'k'.repeat(64)}… is not a known field for mysql`,
    )
  })

  it('names the field in the error details', () => {
    try {
      validateCredentials('postgres', { ...VALID.postgres, port: 0 })
    } catch (err) {
      expect((err as ApiError).details).toEqual({
        field: 'credentials.port',
        fields: [{ in: 'body', path: 'credentials.port', problem: expect.stringMatching(/^must be /) }],
      })
    }
    expect.assertions(1)
  })

  it('refuses an unknown datasourceType', () => {
    expect(failure(() => validateCredentials('oracle' as DatasourceType, { name: 'x' }))).toMatch(
      /^datasourceType must be one of: snowflake, postgres/,
    )
  })

  it('refuses __proto__ smuggled as an own field', () => {
    const credentials = JSON.parse(`{"name":"x","host":"h","port":1,"user":"u","password":"p","__proto__":{"a":1}}`)
    expect(credentialsFailure('mysql', credentials)).toBe('credentials.__proto__ is not a known field for mysql')
  })
})

describe('secretFields and redactCredentials', () => {
  it.each([
    ['snowflake', ['password', 'privateKey', 'privateKeyPass']],
    ['postgres', ['password', 'tlsClientKey', 'sshPrivateKey']],
    ['redshift', ['password', 'tlsClientKey', 'sshPrivateKey']],
    ['cockroachdb', ['password', 'tlsClientKey', 'sshPrivateKey']],
    ['mysql', ['password', 'tlsClientKey']],
    ['mongodb', ['password', 'connectionString']],
    ['clickhouse', ['password']],
    ['singlestore', ['password', 'tlsClientKey']],
    ['bigquery', ['credentials_json']],
    ['databricks', ['token']],
    ['elasticsearch', ['password']],
    ['opensearch', ['password', 'awsSecretAccessKey', 'awsSessionToken']],
    ['mssql', ['password', 'tlsClientKey']],
    ['awss3', ['secretAccessKey']],
    ['csv', []],
    ['firebolt', ['client_secret']],
    ['athena', ['secretAccessKey']],
    ['trino', ['password']],
  ] as const)('%s: %j', (type, secrets) => {
    expect(secretFields(type)).toEqual(secrets)
  })

  it('covers every type', () => {
    for (const type of DATASOURCE_TYPES) expect(Array.isArray(secretFields(type))).toBe(true)
  })

  it.each(DATASOURCE_TYPES)('%s: redactCredentials keeps every non-secret field and drops the secrets', (type) => {
    const redacted = redactCredentials(type, VALID[type])
    expect(redacted).toEqual(without(VALID[type], ...secretFields(type)))
    expect(VALID[type]).toEqual(validateCredentials(type, VALID[type])) // the input is untouched
  })

  it('drops fields the schema does not know (an unvalidated body stays safe) and answers {} for a non-object', () => {
    expect(redactCredentials('postgres', { ...VALID.postgres, pasword: 'x' })).not.toHaveProperty('pasword')
    expect(redactCredentials('postgres', 'postgres://u:p@h')).toEqual({})
  })
})

describe('validateTenancySettings', () => {
  const table = {
    tenancyLevel: 'TABLE',
    clientColumnType: 'STRING',
    schemaName: 'public',
    tableName: 'customers',
    tableClientNameColumn: 'client_id',
    tablePrimaryKeyColumn: 'id',
  }

  it('accepts DATABASE alone and a complete TABLE', () => {
    expect(validateTenancySettings({ tenancyLevel: 'DATABASE' })).toEqual({ tenancyLevel: 'DATABASE' })
    expect(validateTenancySettings(table)).toEqual(table)
    expect(validateTenancySettings({ ...table, tenancyLevel: 'DATABASE' })).toEqual({
      ...table,
      tenancyLevel: 'DATABASE',
    })
  })

  it.each(['clientColumnType', 'schemaName', 'tableName', 'tableClientNameColumn', 'tablePrimaryKeyColumn'])(
    'TABLE without %s is refused',
    (field) => {
      expect(failure(() => validateTenancySettings(without(table, field)))).toBe(
        `tenancySettings.${field} is required when tenancyLevel is TABLE`,
      )
    },
  )

  it.each([
    [{}, 'tenancySettings.tenancyLevel is required'],
    [without(table, 'tenancyLevel'), 'tenancySettings.tenancyLevel is required'],
    [{ tenancyLevel: 'ROW' }, "tenancySettings.tenancyLevel must be one of 'TABLE', 'DATABASE'"],
    [{ ...table, clientColumnType: 'UUID' }, "tenancySettings.clientColumnType must be one of 'NUMBER', 'STRING'"],
    [{ ...table, tableName: '' }, 'tenancySettings.tableName must be a non-empty string of at most 255 characters'],
    [{ ...table, schemaName: 1 }, 'tenancySettings.schemaName must be a non-empty string of at most 255 characters'],
    [{ ...table, tenant: 'x' }, 'tenancySettings.tenant is not a known field'],
    [null, 'tenancySettings must be an object'],
    ['TABLE', 'tenancySettings must be an object'],
  ])('%j → %s', (settings, message) => {
    expect(failure(() => validateTenancySettings(settings))).toBe(message)
  })
})

describe('mergeTenancySettings (update semantics)', () => {
  const existing: TenancySettings = {
    tenancyLevel: 'TABLE',
    clientColumnType: 'NUMBER',
    schemaName: 'public',
    tableName: 'customers',
    tableClientNameColumn: 'client_id',
    tablePrimaryKeyColumn: 'id',
  }

  it('omitted tenancySettings leave the existing ones unchanged (or absent)', () => {
    expect(mergeTenancySettings(existing, undefined)).toBe(existing)
    expect(mergeTenancySettings(undefined, undefined)).toBeUndefined()
  })

  it('given fields update the existing ones, the others are kept', () => {
    expect(mergeTenancySettings(existing, { tableName: 'accounts' })).toEqual({ ...existing, tableName: 'accounts' })
  })

  it('missing settings are created', () => {
    expect(mergeTenancySettings(undefined, { tenancyLevel: 'DATABASE' })).toEqual({ tenancyLevel: 'DATABASE' })
    expect(mergeTenancySettings({ tenancyLevel: 'DATABASE' }, existing)).toEqual(existing)
  })

  it('switching to DATABASE keeps the table fields; switching to TABLE needs them all', () => {
    expect(mergeTenancySettings(existing, { tenancyLevel: 'DATABASE' })).toEqual({
      ...existing,
      tenancyLevel: 'DATABASE',
    })
    expect(
      failure(() => mergeTenancySettings({ tenancyLevel: 'DATABASE' }, { tenancyLevel: 'TABLE', schemaName: 's' })),
    ).toBe('tenancySettings.clientColumnType is required when tenancyLevel is TABLE')
  })

  it('a null field removes it, and the result is validated', () => {
    expect(mergeTenancySettings({ ...existing, tenancyLevel: 'DATABASE' }, { tableName: null })).toEqual(
      without({ ...existing, tenancyLevel: 'DATABASE' }, 'tableName'),
    )
    expect(failure(() => mergeTenancySettings(existing, { tableName: null }))).toBe(
      'tenancySettings.tableName is required when tenancyLevel is TABLE',
    )
  })

  it.each([
    [undefined, { schemaName: 's' }, 'tenancySettings.tenancyLevel is required'],
    [existing, { tenancyLevel: 'ROW' }, "tenancySettings.tenancyLevel must be one of 'TABLE', 'DATABASE'"],
    [existing, { extra: 1 }, 'tenancySettings.extra is not a known field'],
    [existing, null, 'tenancySettings must be an object'],
    [existing, [], 'tenancySettings must be an object'],
  ] as const)('%j + %j → %s', (before, update, message) => {
    expect(failure(() => mergeTenancySettings(before as TenancySettings | undefined, update))).toBe(message)
  })
})

describe('DatasourceBody', () => {
  const body = Compile(DatasourceBody)
  it('accepts every type with loose credentials and optional tenancySettings', () => {
    for (const type of DATASOURCE_TYPES)
      expect(body.Check({ datasourceType: type, credentials: VALID[type] })).toBe(true)
    expect(
      body.Check({ datasourceType: 'csv', credentials: { name: 'x' }, tenancySettings: { tenancyLevel: 'DATABASE' } }),
    ).toBe(true)
  })
  it.each([
    [{ datasourceType: 'oracle', credentials: { name: 'x' } }],
    [{ datasourceType: 'csv' }],
    [{ datasourceType: 'csv', credentials: {} }],
    [{ datasourceType: 'csv', credentials: { name: 'x' }, extra: true }],
  ])('refuses %j', (value) => {
    expect(body.Check(value)).toBe(false)
  })
})

/** Table padding and emphasis style are Biome's business: compare the content. */
const normalize = (markdown: string) =>
  markdown
    .split('\n')
    .map((line) => (line.startsWith('|') ? line.replace(/ *\| */g, '|').replace(/-{3,}/g, '---') : line))
    .join('\n')

describe('docs/datasources.md', () => {
  const path = new URL('../../../../../docs/datasources.md', import.meta.url)
  const docs = () => readFileSync(path, 'utf8')

  it('holds the generated reference, in sync with the schemas (UPDATE_DOCS=1 rewrites it)', () => {
    const text = docs()
    const start = text.indexOf(BEGIN_MARKER)
    const end = text.indexOf(END_MARKER)
    expect(start).toBeGreaterThanOrEqual(0)
    expect(end).toBeGreaterThan(start)
    const current = text.slice(start, end + END_MARKER.length)
    if (process.env.UPDATE_DOCS === '1') writeFileSync(path, text.replace(current, renderCredentialReference()))
    else expect(normalize(current)).toBe(normalize(renderCredentialReference()))
  })

  it.each(DATASOURCE_TYPES)('%s: every schema field appears in its section', (type) => {
    const text = docs()
    const start = text.indexOf(`### ${type}\n`)
    expect(start).toBeGreaterThanOrEqual(0)
    const next = text.indexOf('\n### ', start + 1)
    const section = normalize(text.slice(start, next < 0 ? undefined : next))
    for (const { name } of fieldsOf(type)) expect(section).toContain(`|\`${name}\`|`)
  })
})
