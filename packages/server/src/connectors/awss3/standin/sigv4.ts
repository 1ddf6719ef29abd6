/**
 * AWS Signature Version 4, computed independently of the SDK with node:crypto, from the
 * documented algorithm (AWS General Reference, "Create a signed AWS API request"): canonical
 * request, string to sign, derived signing key, signature. Used to check what the SDK sent.
 */
import { createHash, createHmac } from 'node:crypto'
import type { Recorded } from './protocol.js'

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest()

/** RFC 3986 encoding, as SigV4 requires (every character but A-Z a-z 0-9 - _ . ~). */
const encode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

export interface ParsedAuthorization {
  readonly algorithm: string
  readonly accessKeyId: string
  readonly date: string
  readonly region: string
  readonly service: string
  readonly terminator: string
  readonly signedHeaders: readonly string[]
  readonly signature: string
}

export function parseAuthorization(header: string): ParsedAuthorization {
  const match = /^(\S+) Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/.exec(header)
  if (!match) throw new Error(`not a SigV4 Authorization header: ${header}`)
  const [accessKeyId = '', date = '', region = '', service = '', terminator = ''] = (match[2] ?? '').split('/')
  return {
    algorithm: match[1] ?? '',
    accessKeyId,
    date,
    region,
    service,
    terminator,
    signedHeaders: (match[3] ?? '').split(';'),
    signature: match[4] ?? '',
  }
}

/** The signature the request should carry, given the secret key (S3: the path is not normalised). */
export function expectedSignature(request: Recorded, secretAccessKey: string): string {
  const auth = parseAuthorization(String(request.headers.authorization))
  const [path = '', query = ''] = request.url.split(/\?(.*)/s)
  const canonicalQuery = query
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const eq = pair.indexOf('=')
      const name = decodeURIComponent(eq === -1 ? pair : pair.slice(0, eq))
      const value = eq === -1 ? '' : decodeURIComponent(pair.slice(eq + 1))
      return [encode(name), encode(value)] as const
    })
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&')
  const canonicalHeaders = auth.signedHeaders
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('')
  const payloadHash = String(request.headers['x-amz-content-sha256'])
  const canonicalRequest = [
    request.method,
    path,
    canonicalQuery,
    canonicalHeaders,
    auth.signedHeaders.join(';'),
    payloadHash,
  ].join('\n')
  const scope = `${auth.date}/${auth.region}/${auth.service}/${auth.terminator}`
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    String(request.headers['x-amz-date']),
    scope,
    sha256(canonicalRequest),
  ].join('\n')
  const kDate = hmac(`AWS4${secretAccessKey}`, auth.date)
  const kRegion = hmac(kDate, auth.region)
  const kService = hmac(kRegion, auth.service)
  const kSigning = hmac(kService, 'aws4_request')
  return createHmac('sha256', kSigning).update(stringToSign, 'utf8').digest('hex')
}

export { sha256 }
