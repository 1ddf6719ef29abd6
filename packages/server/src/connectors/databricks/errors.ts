/**
 * Statement Execution API failures → typed ApiErrors (through translateDriverError's order).
 * A refused token (401/403), an address that is not the API, a warehouse that cannot be found
 * and the network are connection failures; a statement that ended FAILED is the warehouse's
 * message as QUERY_ERROR. The service's message is repeated only from its JSON errors.
 */
import { type DriverErrors, errorCode, errorMessage, networkReason } from '../errors.js'
import { DatabricksHttpError, NotDatabricksError, StatementError } from './api.js'

/** fetch() wraps the socket error (ECONNREFUSED …) as `cause` of a TypeError "fetch failed". */
function socketError(err: unknown): unknown {
  const cause = (err as { cause?: unknown } | null)?.cause
  return errorCode(err) === undefined && cause !== undefined ? cause : err
}

function isNetwork(err: unknown): boolean {
  if (networkReason(socketError(err)) !== undefined) return true
  return err instanceof TypeError && /fetch failed/i.test(err.message)
}

function httpReason(err: DatabricksHttpError): string {
  const said = err.serviceMessage ? `: ${err.serviceMessage}` : ''
  if (err.status === 401) return `the access token was refused (HTTP 401${said})`
  if (err.status === 403) return `the access token may not use this warehouse (HTTP 403${said})`
  if (err.status === 404) return `the workspace has no such SQL warehouse or API (HTTP 404${said})`
  return `the service answered HTTP ${err.status}${err.errorCode ? ` ${err.errorCode}` : ''}${said}`
}

export function isConnectionFailure(err: unknown): boolean {
  if (err instanceof NotDatabricksError) return true
  if (err instanceof DatabricksHttpError)
    return err.status === 401 || err.status === 403 || err.status === 404 || err.status >= 500
  return isNetwork(err)
}

export const DATABRICKS_ERRORS: DriverErrors = {
  // No server-side limit of ours: our deadline cancels (the timedOut flag), never the service.
  isTimeout: () => false,
  isConnectionFailure,
  message: (err) => {
    if (err instanceof DatabricksHttpError) return httpReason(err)
    if (err instanceof StatementError) return err.message
    return errorMessage(err)
  },
  connectionReason: (err, message) => {
    if (err instanceof DatabricksHttpError || err instanceof NotDatabricksError || err instanceof StatementError) {
      return message
    }
    return networkReason(socketError(err)) ?? (isNetwork(err) ? 'the host could not be reached' : message)
  },
}
