/**
 * S3 failures → DATASOURCE_CONNECTION_ERROR with S3's reason. Everything the S3 client does
 * (listing, downloading) is part of reaching the datasource: a wrong key, a missing bucket, an
 * unreachable endpoint, a timeout all make it unusable as configured. The reason names S3's error
 * code (and its short fixed message for the codes below); a body S3 did not write (an HTML page of
 * a proxy) is never repeated, and the secret key is redacted from whatever is.
 */
import { ApiError } from '../../errors.js'
import { connectionError, errorCode, errorMessage, networkReason, redact } from '../errors.js'

/** S3 error codes whose meaning the reason spells out (S3's own message follows). */
const KNOWN: Readonly<Record<string, string>> = {
  InvalidAccessKeyId: 'the access key ID is not known to S3',
  SignatureDoesNotMatch: 'the secret access key does not match the access key ID',
  AccessDenied: 'access denied (the key may not list or read this bucket and prefix)',
  AllAccessDisabled: 'all access to this bucket is disabled',
  AccountProblem: 'the AWS account has a problem that prevents access',
  ExpiredToken: 'the credentials have expired',
  InvalidToken: 'the credentials are invalid',
  NoSuchBucket: 'the bucket does not exist',
  InvalidBucketName: 'the bucket name is not valid',
  PermanentRedirect: 'the bucket is in another region (check `region`) or needs another endpoint',
  AuthorizationHeaderMalformed: 'the request was refused (check `region`)',
  RequestTimeTooSkewed: "this server's clock differs too much from S3's",
  NoSuchKey: 'an object disappeared while it was being read (sync again)',
  PreconditionFailed: 'an object changed while it was being read (sync again)',
}

/** S3's message for a known code: short, one line, at most 200 characters. */
function shortMessage(message: string): string {
  const line = message.split('\n')[0]?.trim() ?? ''
  return line.length > 200 ? `${line.slice(0, 200)}…` : line
}

interface SdkErrorShape {
  readonly name?: unknown
  readonly $metadata?: { readonly httpStatusCode?: unknown }
}

/**
 * The ApiError for a failure of an S3 call. `timeoutMs`: the limit the call ran under (its
 * deadline or the socket's idle limit), named when it is what fired. An ApiError passes through.
 */
export function translateS3Error(err: unknown, timeoutMs: number, secrets: readonly string[]): ApiError {
  if (err instanceof ApiError) return err
  const shape = (typeof err === 'object' && err !== null ? err : {}) as SdkErrorShape
  const name = typeof shape.name === 'string' ? shape.name : ''
  const status = shape.$metadata?.httpStatusCode
  const known = KNOWN[name]
  if (known !== undefined) {
    const detail = redact(shortMessage(errorMessage(err)), secrets)
    return connectionError(`S3 refused the request: ${name}: ${known}${detail ? ` (${detail})` : ''}`, err)
  }
  if (name === 'TimeoutError' || name === 'AbortError' || errorCode(err) === 'ETIMEDOUT') {
    return connectionError(`S3 did not answer within ${timeoutMs} ms`, err)
  }
  const network = networkReason(err)
  if (network !== undefined) return connectionError(`cannot reach S3: ${network}`, err)
  if (typeof status === 'number') {
    // An answer S3's protocol does not explain (a proxy's page, a 5xx): its status and code only.
    const code = /^[A-Za-z][A-Za-z0-9.]{0,63}$/.test(name) && name !== 'Unknown' ? ` (${name})` : ''
    return connectionError(`S3 answered HTTP ${status}${code}`, err)
  }
  return connectionError(`S3 request failed: ${redact(shortMessage(errorMessage(err)), secrets)}`, err)
}
