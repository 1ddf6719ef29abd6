/**
 * The S3 client of one awss3 datasource (@aws-sdk/client-s3, imported only by this folder, which
 * the registry loads on first use). Everything it needs comes from the credentials and the
 * connector options: static keys (no credential chain is consulted), the region, and an
 * `endpoint` override for S3-compatible services and test servers (path-style addressing, as
 * they generally require). Each request gives up when the socket is silent for the connect
 * timeout; one retry at most.
 */
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { badRequest } from '../../errors.js'
import type { AwsS3Credentials } from '../types.js'

export { GetObjectCommand, ListObjectsV2Command, S3Client }

/** The `endpoint` as an http(s) URL, or undefined (AWS itself, in `region`). */
export function endpointUrl(endpoint: string | undefined): string | undefined {
  if (endpoint === undefined || endpoint === '') return undefined
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    throw badRequest('credentials.endpoint must be an http:// or https:// URL', { field: 'credentials.endpoint' })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badRequest('credentials.endpoint must be an http:// or https:// URL', { field: 'credentials.endpoint' })
  }
  if (url.username !== '' || url.password !== '') {
    throw badRequest('credentials.endpoint must not carry a user name or password (use the access keys)', {
      field: 'credentials.endpoint',
    })
  }
  return url.href
}

export function createS3Client(credentials: AwsS3Credentials, timeoutMs: number): S3Client {
  const endpoint = endpointUrl(credentials.endpoint)
  return new S3Client({
    region: credentials.region,
    credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
    ...(endpoint === undefined ? {} : { endpoint, forcePathStyle: true }),
    // a wrong region is an error to report, not a redirect to follow silently
    followRegionRedirects: false,
    useFipsEndpoint: false,
    useDualstackEndpoint: false,
    // only reads: no request checksums, responses checked where S3 sends one
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs },
  })
}
