/**
 * The S3 client (@aws-sdk/client-s3, imported only by this file, which is loaded on first use:
 * by the registry for an awss3 datasource, by services/rollups/s3-storage.ts for rollups on S3).
 * One factory (`newS3Client`) for both. A datasource's client takes everything from the
 * credentials and the connector options: static keys (no credential chain is consulted), the
 * region, and an `endpoint` override for S3-compatible services and test servers (path-style
 * addressing, as they generally require). Each request gives up when the socket is silent for
 * the connect timeout; one retry at most.
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

/** What an S3 client needs: the one factory below is shared by awss3 datasources and rollup storage on S3. */
export interface S3ClientSettings {
  readonly region: string
  /** An S3-compatible service or a test server (path-style addressing); absent: AWS itself. */
  readonly endpoint?: string | undefined
  /** Static keys; absent: the SDK's default chain (environment, instance or task role). */
  readonly keys?: { readonly accessKeyId: string; readonly secretAccessKey: string } | undefined
  /** Each request gives up when the socket is silent this long (connect and idle). */
  readonly timeoutMs: number
  /** Tries of a request, the first included. */
  readonly maxAttempts: number
}

/**
 * An S3 client: the region as given (a wrong one is an error to report, not a redirect to follow
 * silently), no FIPS or dual-stack endpoint, checksums only where S3 requires them (a request)
 * or sends one (a response), a silent socket given up after `timeoutMs`.
 */
export function newS3Client(settings: S3ClientSettings): S3Client {
  const { region, endpoint, keys, timeoutMs, maxAttempts } = settings
  return new S3Client({
    region,
    ...(keys === undefined
      ? {}
      : { credentials: { accessKeyId: keys.accessKeyId, secretAccessKey: keys.secretAccessKey } }),
    ...(endpoint === undefined ? {} : { endpoint, forcePathStyle: true }),
    followRegionRedirects: false,
    useFipsEndpoint: false,
    useDualstackEndpoint: false,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts,
    requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs },
  })
}

/** A datasource's client: its static keys, its endpoint checked, one retry at most. */
export function createS3Client(credentials: AwsS3Credentials, timeoutMs: number): S3Client {
  return newS3Client({
    region: credentials.region,
    endpoint: endpointUrl(credentials.endpoint),
    keys: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
    timeoutMs,
    maxAttempts: 2,
  })
}
