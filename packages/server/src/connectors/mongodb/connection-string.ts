/**
 * The `connectionString` field: a `mongodb://` or `mongodb+srv://` URI, read by the driver's own
 * parser (the MongoClient constructor parses it, and every option in it, without connecting or
 * resolving DNS), then refused when it would read this server's files or credentials. The
 * driver is loaded on the first check only (it is CommonJS: a synchronous
 * require), so validating another type never loads it.
 */
import { createRequire } from 'node:module'

type MongoClientClass = typeof import('mongodb').MongoClient

let MongoClient: MongoClientClass | undefined

/**
 * Options that make the driver read a file of this server's disk: a datasource must not be able
 * to point them at the server's own files.
 */
const FILE_OPTIONS = ['tlsCAFile', 'tlsCertificateKeyFile', 'tlsCRLFile'] as const
/**
 * Mechanisms that authenticate with the user and password of the datasource. The others would
 * authenticate with what this server holds (MONGODB-AWS and MONGODB-OIDC read its environment,
 * GSSAPI its Kerberos tickets, MONGODB-X509 a certificate file): refused.
 */
const PASSWORD_MECHANISMS = new Set<string>(['DEFAULT', 'SCRAM-SHA-1', 'SCRAM-SHA-256', 'PLAIN'])

/** Why the driver refuses `uri`, or undefined when it parses. Never repeats the password. */
export function connectionStringProblem(uri: string): string | undefined {
  if (!/^mongodb(\+srv)?:\/\//i.test(uri)) return 'must start with mongodb:// or mongodb+srv://'
  MongoClient ??= (createRequire(import.meta.url)('mongodb') as { MongoClient: MongoClientClass }).MongoClient
  try {
    // constructing parses the URI and its options; nothing connects until connect()
    const options = new MongoClient(uri).options
    const file = FILE_OPTIONS.find((name) => options[name] !== undefined)
    if (file) return `must not name a file of this server (${file}): paste no file paths`
    const mechanism = options.credentials?.mechanism
    if (mechanism !== undefined && !PASSWORD_MECHANISMS.has(mechanism)) {
      return `must not use authMechanism ${mechanism}: only a user and password (SCRAM) are accepted`
    }
    return undefined
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err)
    return `is not a connection string the driver accepts: ${withoutSecrets(reason, uri)}`
  }
}

/** `reason` without the URI's user information (the password may be in it). */
function withoutSecrets(reason: string, uri: string): string {
  const userInfo = /^[^:]+:\/\/([^@/]*)@/.exec(uri)?.[1]
  let out = reason.replaceAll(uri, '<connectionString>')
  if (userInfo) {
    out = out.replaceAll(userInfo, '<user information>')
    for (const part of userInfo.split(':')) if (part.length > 0) out = out.replaceAll(part, '<hidden>')
  }
  return out.slice(0, 300)
}
