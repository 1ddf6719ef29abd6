/**
 * Credentials → snowflake-sdk connection options. `host` is the account host
 * (`xy12345.eu-west-1.snowflakecomputing.com`), or `host:port`, or an http(s):// URL for a
 * private link, a proxy or a test server (docs/datasources.md#snowflake): the SDK's accessUrl. The account name
 * the login carries (and the key-pair JWT's issuer) is the host's first label, as Snowflake's
 * account hosts are named (docs.snowflake.com user-guide/admin-account-identifier).
 */
import type { ConnectionOptions } from 'snowflake-sdk'
import { badRequest } from '../../errors.js'
import type { SnowflakeCredentials } from '../types.js'

export interface Endpoint {
  readonly accessUrl: string
  readonly host: string
  readonly account: string
}

export function endpointOf(host: string): Endpoint {
  const text = host.trim()
  let url: URL
  try {
    url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`)
  } catch {
    throw badRequest('credentials.host must be an account host, host:port or an http(s):// URL')
  }
  if (url.hostname === '' || url.username !== '' || url.password !== '') {
    throw badRequest('credentials.host must be an account host, host:port or an http(s):// URL')
  }
  const hostname = url.hostname.replace(/^\[|\]$/g, '')
  const account = hostname.split('.')[0] ?? hostname
  return { accessUrl: url.origin, host: hostname, account: /^\w+([.-]\w+)*$/.test(account) ? account : 'account' }
}

/**
 * Quotes a tenant database name for the login request: a quoted name is taken exactly as
 * written (names from `databases()` are stored names, which an unquoted login would upper-case).
 */
export function quotedName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

/** The SDK's options for one session in `database` (a tenant's, or the configured one). */
export function connectionOptions(credentials: SnowflakeCredentials, database: string | undefined): ConnectionOptions {
  const endpoint = endpointOf(credentials.host)
  const keyPair = credentials.service === 'Key-pair authentication'
  return {
    account: endpoint.account,
    accessUrl: endpoint.accessUrl,
    host: endpoint.host,
    username: credentials.username,
    ...(keyPair
      ? {
          authenticator: 'SNOWFLAKE_JWT',
          privateKey: credentials.privateKey,
          ...(credentials.privateKeyPass ? { privateKeyPass: credentials.privateKeyPass } : {}),
        }
      : { password: credentials.password ?? '' }),
    role: credentials.role,
    warehouse: credentials.warehouse,
    database: database === undefined ? credentials.database : quotedName(database),
    schema: credentials.schema,
    application: 'Strata',
    // One login attempt: our own deadline bounds it (connectTimeoutMs), a retry would outlive it.
    sfRetryMaxLoginRetries: 0,
    clientSessionKeepAlive: false,
    // Numbers as the server's text: 64-bit integers and decimals keep their digits (type-mapping.ts).
    fetchAsString: ['Number'],
  }
}
