/**
 * Athena (AWS SDK v3) failures → typed ApiErrors. Service errors carry the exception's name
 * (`err.name`) and `$metadata.httpStatusCode`; transport failures are Node socket errors (also
 * as `cause`) or the SDK's TimeoutError. A query that ran and failed is AthenaQueryFailed, with
 * Athena's StateChangeReason.
 */
import { type DriverErrors, errorMessage, networkReason } from '../errors.js'

/** The FAILED state of a query execution: Athena's reason is the message. */
export class AthenaQueryFailed extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'AthenaQueryFailed'
  }
}

/** The keys, the signature, the permissions, the workgroup, the catalogue: not the query. */
const CONNECTION_NAMES = new Set([
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'MissingAuthenticationTokenException',
  'IncompleteSignature',
  'IncompleteSignatureException',
  'AccessDeniedException',
  'ExpiredTokenException',
  'InvalidClientTokenId',
  'MetadataException',
  'TimeoutError',
])

/** What an InvalidRequestException names when the datasource's set-up, not the statement, is wrong. */
const SETUP = /work ?group|output location|bucket|catalog|database .*not found/i

function socketReason(err: unknown): string | undefined {
  return networkReason(err) ?? networkReason((err as { cause?: unknown } | null)?.cause)
}

function isServiceError(err: unknown): err is Error & { $metadata?: { httpStatusCode?: number } } {
  return err instanceof Error && typeof (err as { $metadata?: unknown }).$metadata === 'object'
}

export function isConnectionFailure(err: unknown): boolean {
  if (err instanceof AthenaQueryFailed) return false
  if (socketReason(err) !== undefined) return true
  if (!(err instanceof Error)) return false
  if (CONNECTION_NAMES.has(err.name)) return true
  // InvalidRequestException is also a statement Athena refuses: only the set-up is the connection's
  if (err.name === 'InvalidRequestException') return SETUP.test(err.message)
  // an answer that was not Athena's JSON (another service at the endpoint)
  return isServiceError(err) && (err.$metadata?.httpStatusCode ?? 0) >= 500
}

function connectionReason(err: unknown, message: string): string {
  const socket = socketReason(err)
  if (socket !== undefined) return socket
  if (err instanceof Error && err.name === 'TimeoutError') return 'no answer in time'
  if (err instanceof Error && (CONNECTION_NAMES.has(err.name) || err.name === 'InvalidRequestException')) {
    return `${err.name}: ${message}`
  }
  // never repeat a body that is not Athena's (the SDK may quote it)
  return 'the endpoint did not answer as Athena'
}

export const ATHENA_ERRORS: DriverErrors = {
  // Athena has no per-query time limit of ours: our deadline is the limit (StopQueryExecution)
  isTimeout: () => false,
  isConnectionFailure,
  message: (err) => errorMessage(err),
  connectionReason,
}
