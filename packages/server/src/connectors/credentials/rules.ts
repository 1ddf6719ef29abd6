/**
 * The conditional rules of the credentials table (what a JSON Schema of the fields alone does
 * not say), one entry per type that has any. Each rule is documented by its `doc` lines, which
 * docs/datasources.md renders under the type's field table.
 */

import { parseJsonText } from '../../validation/json-text.js'
import { relativePathProblem } from '../duckdb/files-root.js'
import { connectionStringProblem } from '../mongodb/connection-string.js'
import { tlsFieldProblem } from '../shared/tls.js'
import type { DatasourceType } from '../types.js'
import type { CredentialsByType } from './schemas.js'

/** A broken rule: the message is `credentials.<field> <problem>`. */
export interface Violation {
  readonly field: string
  readonly problem: string
}

interface Rule<T extends DatasourceType> {
  readonly doc: readonly string[]
  readonly check: (credentials: CredentialsByType[T]) => Violation | undefined
}

type Rules = { readonly [T in DatasourceType]?: Rule<T> }

const SSH_FIELDS = ['sshHost', 'sshPort', 'sshUsername', 'sshPrivateKey'] as const

/** The types with TLS fields (docs/datasources.md#tls). */
type TlsType = 'postgres' | 'redshift' | 'cockroachdb' | 'mysql' | 'singlestore' | 'mssql'
type CaType = 'clickhouse' | 'trino' | 'elasticsearch' | 'opensearch' | 'mongodb'

const tlsRule: Rule<TlsType> = {
  doc: [
    '`tlsCaCertificate` and `tlsClientCertificate` must be PEM certificates and `tlsClientKey` an unencrypted PEM private key; a client certificate needs its key and the reverse.',
  ],
  check: (c) => tlsFieldProblem(c),
}

const caRule: Rule<CaType> = {
  doc: ['`tlsCaCertificate`, when given, must hold PEM certificates.'],
  check: (c) => tlsFieldProblem(c),
}

/** Both rules: the first's violation, else the second's; their docs in order. */
function both<T extends DatasourceType>(first: Rule<T>, second: Rule<T>): Rule<T> {
  return { doc: [...first.doc, ...second.doc], check: (c) => first.check(c) ?? second.check(c) }
}

const postgresFamily = both<'postgres' | 'redshift' | 'cockroachdb'>(
  {
    doc: ['`sshHost`, `sshPort`, `sshUsername` and `sshPrivateKey` are required when `sshTunnel` is `enable`.'],
    check: (c) => {
      if (c.sshTunnel !== 'enable') return undefined
      const missing = SSH_FIELDS.find((field) => c[field] === undefined)
      return missing && { field: missing, problem: 'is required when sshTunnel is enable' }
    },
  },
  tlsRule,
)

const searchEngineFields: Rule<'elasticsearch' | 'opensearch'> = {
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

const searchEngine = both<'elasticsearch' | 'opensearch'>(searchEngineFields, caRule)

/** An endpoint override (docs/datasources.md#fields-that-need-a-word): an http(s):// URL, when given. */
const httpEndpoint = (field: string, value: string | undefined): Violation | undefined =>
  value === undefined || /^https?:\/\/[^/]/i.test(value)
    ? undefined
    : { field, problem: 'must be an http:// or https:// URL' }

/** A JSON object in text, read by the parser of request bodies (depth, no prototype-poisoning key). */
function isJsonObject(text: string): boolean {
  const parsed = parseJsonText(text)
  return 'value' in parsed && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value)
}

export const CONDITIONAL_RULES: Rules = {
  postgres: postgresFamily,
  redshift: postgresFamily,
  cockroachdb: postgresFamily,
  mysql: tlsRule,
  singlestore: tlsRule,
  mssql: tlsRule,
  clickhouse: caRule,
  trino: caRule,
  snowflake: {
    doc: [
      '`password` is required (non-empty) when `service` is `username/password`.',
      '`privateKey` is required when `service` is `Key-pair authentication`; `privateKeyPass` only when the key is encrypted.',
      'The field of the other method is accepted and ignored.',
    ],
    check: (c) => {
      if (c.service === 'username/password' && !c.password) {
        return { field: 'password', problem: 'is required when service is username/password' }
      }
      if (c.service === 'Key-pair authentication' && c.privateKey === undefined) {
        return { field: 'privateKey', problem: 'is required when service is Key-pair authentication' }
      }
      return undefined
    },
  },
  elasticsearch: searchEngine,
  opensearch: {
    doc: [
      ...searchEngine.doc,
      'AWS IAM (SigV4): with `awsRegion`, requests are signed with `awsAccessKeyId` and `awsSecretAccessKey` (both required; `awsSessionToken` for temporary credentials) for the service `awsService` (`es`, the default, or `aoss`); `server_type` must be `self-managed` (`server_url` is the domain or collection endpoint), and `username`, `password` and `disableAuth` are refused.',
      'An `aws…` field without `awsRegion` is refused.',
    ],
    check: (c) => {
      if (c.awsRegion === undefined) {
        const stray = (['awsService', 'awsAccessKeyId', 'awsSecretAccessKey', 'awsSessionToken'] as const).find(
          (f) => c[f] !== undefined,
        )
        return stray ? { field: stray, problem: 'is only valid with awsRegion' } : searchEngine.check(c)
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
      return searchEngine.check({ ...c, disableAuth: true })
    },
  },
  mongodb: both<'mongodb'>(caRule, {
    doc: [
      'Either `connectionString`, or `host`, `port` and `user`: `host` and `port` are refused beside a connection string.',
      '`connectionString` must be a `mongodb://` or `mongodb+srv://` URI the MongoDB driver parses (its options included).',
      'A connection string naming a file of the server (`tlsCAFile`, `tlsCertificateKeyFile`, `tlsCRLFile`) or an `authMechanism` other than SCRAM or PLAIN (`MONGODB-AWS`, `MONGODB-OIDC`, `GSSAPI`, `MONGODB-X509` would use what the server holds) is refused.',
      '`user`, `password` and `authSource`, given beside a connection string, take precedence over the ones in it.',
    ],
    check: (c) => {
      if (c.connectionString !== undefined) {
        for (const field of ['host', 'port'] as const) {
          if (c[field] !== undefined) return { field, problem: 'is not allowed beside connectionString' }
        }
        const problem = connectionStringProblem(c.connectionString)
        return problem ? { field: 'connectionString', problem } : undefined
      }
      for (const field of ['host', 'port', 'user'] as const) {
        if (c[field] === undefined) return { field, problem: 'is required unless connectionString is given' }
      }
      return undefined
    },
  }),
  bigquery: {
    doc: [
      '`credentials_json` must be a JSON object (the content of the service account key file).',
      '`apiEndpoint`, when given, must be an http:// or https:// URL.',
    ],
    check: (c) =>
      isJsonObject(c.credentials_json)
        ? httpEndpoint('apiEndpoint', c.apiEndpoint)
        : { field: 'credentials_json', problem: 'must be a JSON object (the service account key file) as a string' },
  },
  awss3: {
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
  },
  csv: {
    doc: [
      '`path` is relative to `FILES_ROOT` (where `PUT /api/v2/datasource/files/:datasourceName/:fileName` stores files): the folder `datasourceName`, or one file in it.',
      'An absolute `path`, one with `..` or hidden segments, backslashes, `%`, glob or control characters, or one that resolves outside `FILES_ROOT` through a link is 400 `INVALID_REQUEST_BODY`; links are resolved whenever the files are opened, not only on create.',
    ],
    check: (c) => {
      const problem = relativePathProblem(c.path)
      return problem ? { field: 'path', problem } : undefined
    },
  },
  athena: {
    doc: ['`s3OutputLocation` must be an s3:// URI.', '`endpoint`, when given, must be an http:// or https:// URL.'],
    check: (c) =>
      /^s3:\/\/./i.test(c.s3OutputLocation)
        ? httpEndpoint('endpoint', c.endpoint)
        : { field: 's3OutputLocation', problem: 'must be an s3:// URI' },
  },
  firebolt: {
    doc: ['`apiEndpoint`, when given, must be an http:// or https:// URL.'],
    check: (c) => httpEndpoint('apiEndpoint', c.apiEndpoint),
  },
}

/** Runs the type's conditional rule, if it has one. */
export function checkRules<T extends DatasourceType>(
  type: T,
  credentials: CredentialsByType[T],
): Violation | undefined {
  const rule = CONDITIONAL_RULES[type] as Rule<T> | undefined
  return rule?.check(credentials)
}
