/**
 * snowflake-sdk errors → typed ApiErrors. Server answers carry Snowflake's error code as a
 * string (`390100` incorrect username or password, `000630` statement timeout, `000604`
 * cancelled, `001003` SQL compilation error …, docs.snowflake.com error messages); transport
 * failures are the SDK's NetworkError (code 401001) wrapping the socket error, and a non-200 HTTP
 * answer is a RequestFailedError (401002) whose body is never repeated (it may be some other
 * service's HTML).
 */
import { type DriverErrors, errorMessage, networkReason } from '../errors.js'

/** STATEMENT_TIMEOUT_IN_SECONDS reached: "Statement reached its statement or warehouse timeout". */
const TIMEOUT_CODES = new Set(['000630'])
/** The SDK's own transport codes (constants/error_messages.js). */
const NETWORK = 401001
const HTTP_FAILURE = 401002
const NOT_JSON = 401003
const LARGE_RESULT_NETWORK = 402001
const LARGE_RESULT_FAILURE = 402002

interface SdkError {
  readonly name?: unknown
  readonly code?: unknown
  readonly cause?: unknown
  readonly response?: { readonly statusCode?: unknown; readonly status?: unknown }
}

const sdk = (err: unknown): SdkError => (typeof err === 'object' && err !== null ? (err as SdkError) : {})

/** The server's error code (`390100`), when the error is the server's answer. */
export function serverCode(err: unknown): string | undefined {
  const code = sdk(err).code
  return typeof code === 'string' && /^\d{6}$/.test(code) ? code : undefined
}

function sdkCode(err: unknown): number | undefined {
  const code = sdk(err).code
  return typeof code === 'number' ? code : undefined
}

/** 390xxx: login, session and authentication answers (bad password, invalid JWT, locked user …). */
const isAuthCode = (code: string | undefined) => code?.startsWith('390') === true

export function isConnectionFailure(err: unknown): boolean {
  const code = sdkCode(err)
  return (
    isAuthCode(serverCode(err)) ||
    code === NETWORK ||
    code === HTTP_FAILURE ||
    code === NOT_JSON ||
    code === LARGE_RESULT_NETWORK ||
    code === LARGE_RESULT_FAILURE ||
    networkReason(err) !== undefined ||
    networkReason(sdk(err).cause) !== undefined
  )
}

/** Why the connection failed: the socket error, the HTTP status, or Snowflake's own login message. */
function connectionReason(err: unknown, message: string): string {
  const network = networkReason(err) ?? networkReason(sdk(err).cause)
  if (network !== undefined) return network
  const code = sdkCode(err)
  if (code === HTTP_FAILURE || code === LARGE_RESULT_FAILURE) {
    const response = sdk(err).response
    const status = response?.statusCode ?? response?.status
    return `the server answered HTTP ${typeof status === 'number' ? status : '(no status)'}, not Snowflake's API`
  }
  if (code === NOT_JSON) return 'the server did not answer with Snowflake JSON'
  if (code === NETWORK || code === LARGE_RESULT_NETWORK) return message || 'could not reach Snowflake'
  const server = serverCode(err)
  return server === undefined ? message : `${message} (Snowflake error ${server})`
}

export const SNOWFLAKE_ERRORS: DriverErrors = {
  isTimeout: (err) => {
    const code = serverCode(err)
    return code !== undefined && TIMEOUT_CODES.has(code)
  },
  isConnectionFailure,
  message: (err) => errorMessage(err),
  connectionReason,
}
