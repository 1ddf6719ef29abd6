/**
 * Checks an AWS Signature Version 4 `Authorization` header the way AWS does
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html):
 * rebuild the canonical request from what arrived, derive the signing key from the secret, and
 * compare signatures. Test code for the Athena stand-in: proves the SDK signed with the key pair
 * of the credentials, and that a wrong secret is refused as AWS refuses it.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'

export type SignatureCheck =
  | { readonly ok: true; readonly accessKeyId: string; readonly region: string; readonly service: string }
  | {
      readonly ok: false
      readonly error:
        | 'MissingAuthenticationTokenException'
        | 'UnrecognizedClientException'
        | 'InvalidSignatureException'
      readonly message: string
    }

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest()

function header(headers: IncomingHttpHeaders, name: string): string {
  const v = headers[name]
  return (Array.isArray(v) ? v.join(',') : (v ?? '')).trim().replace(/\s+/g, ' ')
}

/** RFC 3986 encoding of one path segment or query part, as SigV4 wants it. */
const uriEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

export function verifySigV4(
  method: string,
  url: URL,
  headers: IncomingHttpHeaders,
  body: Buffer,
  secrets: Readonly<Record<string, string>>,
): SignatureCheck {
  const auth = header(headers, 'authorization')
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    )
  if (!m) return { ok: false, error: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' }
  const [, accessKeyId, date, region, service, signedHeaders, signature] = m as unknown as string[] as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ]
  const secret = secrets[accessKeyId]
  if (secret === undefined) {
    return {
      ok: false,
      error: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    }
  }
  const amzDate = header(headers, 'x-amz-date')
  const canonicalHeaders = signedHeaders
    .split(';')
    .map((h) => `${h}:${header(headers, h)}\n`)
    .join('')
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => `${uriEncode(k)}=${uriEncode(v)}`)
    .sort()
    .join('&')
  const payloadHash = header(headers, 'x-amz-content-sha256') || sha256(body)
  const canonicalRequest = [method, url.pathname || '/', query, canonicalHeaders, signedHeaders, payloadHash].join('\n')
  const scope = `${date}/${region}/${service}/aws4_request`
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n')
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request')
  const expected = createHmac('sha256', key).update(toSign).digest()
  const given = Buffer.from(signature, 'hex')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return {
      ok: false,
      error: 'InvalidSignatureException',
      message: 'The request signature we calculated does not match the signature you provided.',
    }
  }
  return { ok: true, accessKeyId, region, service }
}
