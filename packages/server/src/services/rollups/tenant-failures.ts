import { ApiError, type ErrorCode } from '../../errors.js'

/** A tenant database whose part of a build failed: its rows were dropped, its previous files kept. */
export interface TenantFailure {
  readonly database: string
  /** The first line of its error. */
  readonly error: string
  readonly code: ErrorCode
  /** It had files of the same definition, which keep answering its queries; none: the warehouse answers them. */
  readonly keptFiles: boolean
}

/** Databases a build's `lastError` names at most; the rest are counted. */
const NAMED = 10
/** Databases whose error it gives. */
const EXPLAINED = 3
/** Characters of each error given. */
const ERROR_CHARS = 200

/**
 * The `lastError` of a build some of whose tenant databases failed: how many of how many, the
 * names of the first few (those that keep older files first: tenants served stale data, before
 * databases never built, such as one without the rollup's table), then the errors of the first
 * three, so the names survive the state row's 1000 characters. One line.
 */
export function tenantFailureText(failed: readonly TenantFailure[], of: number): string {
  const order = [...failed].sort((a, b) => Number(b.keptFiles) - Number(a.keptFiles))
  const kept = failed.filter((f) => f.keptFiles).length
  const names = order.slice(0, NAMED).map((f) => f.database)
  const more = failed.length > NAMED ? ` and ${failed.length - NAMED} more` : ''
  const errors = order
    .slice(0, EXPLAINED)
    .map((f) => `${f.database}: ${f.error.length > ERROR_CHARS ? `${f.error.slice(0, ERROR_CHARS)}…` : f.error}`)
  return (
    `${failed.length} of ${of} tenant databases not refreshed (previous files kept for ${kept}): ` +
    `${names.join(', ')}${more}. ${errors.join('; ')}`
  )
}

/** Failed tenant databases one log line names. */
const LOGGED_PER_LINE = 100

/** One log line's part of a build's failed tenant databases. */
export interface FailedTenantsLine {
  readonly failedTenants: readonly string[]
  /** With more than one line: this line's number (from 1) and how many there are. */
  readonly part?: number
  readonly parts?: number
}

/**
 * The build's failed tenant databases as log lines: every one named, in order, LOGGED_PER_LINE a
 * line (the state row's `lastError` names only the first ten).
 */
export function failedTenantLines(databases: readonly string[]): FailedTenantsLine[] {
  const parts = Math.ceil(databases.length / LOGGED_PER_LINE)
  return Array.from({ length: parts }, (_, i) => ({
    failedTenants: databases.slice(i * LOGGED_PER_LINE, (i + 1) * LOGGED_PER_LINE),
    ...(parts > 1 ? { part: i + 1, parts } : {}),
  }))
}

/** Every tenant database failed: the build failed, with the same text. */
export function allTenantsFailed(failed: readonly TenantFailure[]): ApiError {
  return new ApiError(failed[0]?.code ?? 'QUERY_ERROR', 400, tenantFailureText(failed, failed.length))
}
