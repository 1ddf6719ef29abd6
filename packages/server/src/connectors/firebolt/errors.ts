/**
 * firebolt-sdk errors → typed ApiErrors. What the SDK throws:
 * - `ApiError` (status, raw JSON body) for an HTTP answer above 300: the OAuth endpoint's
 *   refusal (`{"error", "error_description"}`), or a query refused with Firebolt's error body;
 * - `CompositeError` (`errors: [{ description, code, name, severity, source, … }]`) for a
 *   response whose JSON body carries `errors` (Firebolt's structured error format);
 * - `AccountNotFoundError` (engine URL lookup answered 404), `AuthenticationError`;
 * - node-fetch `FetchError`s with Node's socket codes (ECONNREFUSED …), `AbortError` on our abort.
 * A body that is not JSON is never repeated (it may be another service's page).
 */
import { type DriverErrors, errorMessage, networkReason } from '../errors.js'

/** The longest server text a connection error repeats. */
export const MAX_REASON_LENGTH = 200

interface FireboltErrorEntry {
  readonly description?: unknown
  readonly name?: unknown
  readonly code?: unknown
}

interface SdkError {
  readonly name?: unknown
  readonly status?: unknown
  readonly raw?: unknown
  readonly errors?: unknown
  readonly constructor?: { readonly name?: string }
}

function kind(err: unknown): string | undefined {
  return (err as SdkError | null)?.constructor?.name
}

/** Firebolt's structured errors, from a CompositeError or an ApiError's JSON body. */
export function fireboltErrors(err: unknown): FireboltErrorEntry[] | undefined {
  const e = err as SdkError | null
  if (Array.isArray(e?.errors)) return e.errors as FireboltErrorEntry[]
  const raw = e?.raw as { errors?: unknown } | undefined
  if (raw !== null && typeof raw === 'object' && Array.isArray(raw.errors)) return raw.errors as FireboltErrorEntry[]
  return undefined
}

function httpStatus(err: unknown): number | undefined {
  const status = (err as SdkError | null)?.status
  return typeof status === 'number' ? status : undefined
}

/** What the OAuth endpoint said (`error_description`, else `error`), when it answered JSON. */
function oauthReason(err: unknown): string | undefined {
  const raw = (err as SdkError | null)?.raw as
    | { error?: unknown; error_description?: unknown; message?: unknown }
    | undefined
  if (raw === null || typeof raw !== 'object') return undefined
  for (const v of [raw.error_description, raw.error, raw.message]) if (typeof v === 'string' && v !== '') return v
  return undefined
}

/** The engine's words: the descriptions of Firebolt's errors, else the JSON reason, else the status only. */
export function fireboltMessage(err: unknown): string {
  const entries = fireboltErrors(err)
  if (entries !== undefined && entries.length > 0) {
    return entries
      .map((e) => (typeof e.description === 'string' ? e.description : typeof e.name === 'string' ? e.name : 'error'))
      .join('; ')
  }
  if (kind(err) === 'ApiError') {
    return oauthReason(err) ?? `the server answered HTTP ${httpStatus(err) ?? '?'} without a Firebolt error body`
  }
  return errorMessage(err)
}

function cut(text: string): string {
  return text.length <= MAX_REASON_LENGTH ? text : `${text.slice(0, MAX_REASON_LENGTH - 1)}…`
}

const TIMEOUT = /statement[_ ]timeout|timed out|timeout (was )?exceeded/i
const UNUSABLE = /\b(database|engine|account)\b.*\b(does not exist|not found|not running|is stopped|not authorized)/i

export const FIREBOLT_ERRORS: DriverErrors = {
  isTimeout: (err) =>
    (fireboltErrors(err) ?? []).some((e) => typeof e.description === 'string' && TIMEOUT.test(e.description)),
  isConnectionFailure: (err) => {
    if (networkReason(err) !== undefined) return true
    const k = kind(err)
    if (k === 'AccountNotFoundError' || k === 'AuthenticationError') return true
    const status = httpStatus(err)
    if (k === 'ApiError' && (status === 401 || status === 403)) return true
    return UNUSABLE.test(fireboltMessage(err))
  },
  message: fireboltMessage,
  connectionReason: (err, message) => {
    const network = networkReason(err)
    if (network !== undefined) return network
    const status = httpStatus(err)
    if (status === 401 || status === 403) return cut(`authentication failed (HTTP ${status}): ${message}`)
    return cut(message)
  },
}
