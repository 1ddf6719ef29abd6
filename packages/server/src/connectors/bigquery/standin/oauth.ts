/**
 * The OAuth 2.0 side of the BigQuery stand-in: a service account key made for the test, and the
 * token endpoint's check of the JWT bearer assertion google-auth-library posts
 * (https://developers.google.com/identity/protocols/oauth2/service-account#httprest: an RS256 JWT
 * signed with the key, `iss` the client email, `scope`, `aud` Google's token URL, `exp`). The
 * signature is verified against the public half of the test key, so a key the stand-in did not
 * issue is refused exactly as Google refuses it (`invalid_grant`).
 */
import { createVerify, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto'

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token'
export const BIGQUERY_SCOPE = 'https://www.googleapis.com/auth/bigquery'

export interface TestKey {
  /** The key file, as a string: what `credentials_json` holds. */
  readonly json: string
  readonly publicKey: KeyObject
  readonly clientEmail: string
}

/** A fresh RSA service account key; `tokenUri` is where its holder gets tokens. */
export function makeKey(
  projectId: string,
  tokenUri: string,
  clientEmail = `strata-test@${projectId}.iam.gserviceaccount.com`,
): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const json = JSON.stringify({
    type: 'service_account',
    project_id: projectId,
    private_key_id: randomBytes(20).toString('hex'),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: clientEmail,
    client_id: '100000000000000000000',
    token_uri: tokenUri,
  })
  return { json, publicKey, clientEmail }
}

function decode(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>
}

/** Why the assertion is refused (RFC 6749 §5.2 `invalid_grant`), or undefined when it is valid. */
export function checkAssertion(assertion: string, key: TestKey, tokenUrls: readonly string[]): string | undefined {
  const parts = assertion.split('.')
  if (parts.length !== 3) return 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.'
  const [header, claims, signature] = parts as [string, string, string]
  let h: Record<string, unknown>
  let c: Record<string, unknown>
  try {
    h = decode(header)
    c = decode(claims)
  } catch {
    return 'Invalid JWT: malformed.'
  }
  if (h.alg !== 'RS256') return 'Invalid JWT: unsupported algorithm.'
  const verify = createVerify('RSA-SHA256')
  verify.update(`${header}.${claims}`)
  if (!verify.verify(key.publicKey, Buffer.from(signature, 'base64url'))) return 'Invalid JWT Signature.'
  if (c.iss !== key.clientEmail) return 'Invalid grant: account not found'
  if (typeof c.aud !== 'string' || !tokenUrls.includes(c.aud)) return 'Invalid JWT: audience is not the token endpoint.'
  const now = Math.floor(Date.now() / 1000)
  if (typeof c.exp !== 'number' || c.exp < now || typeof c.iat !== 'number' || c.iat > now + 300) {
    return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.'
  }
  if (typeof c.scope !== 'string' || !c.scope.split(' ').includes(BIGQUERY_SCOPE)) return 'Invalid OAuth scope.'
  return undefined
}
