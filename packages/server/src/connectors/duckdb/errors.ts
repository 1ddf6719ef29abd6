/**
 * DuckDB errors are plain Errors whose message starts with the error class, e.g.
 * `Catalog Error: Table with name x does not exist!` or `INTERRUPT Error: Interrupted!`.
 */
import type { ApiError } from '../../errors.js'
import {
  connectionError,
  type DriverErrors,
  errorMessage,
  type TranslationContext,
  translateDriverError,
} from '../errors.js'

export function isInterrupt(err: unknown): boolean {
  return /^INTERRUPT Error/i.test(errorMessage(err))
}

/**
 * DuckDB's errors are the query's: a dead engine process is answered by the engine host itself
 * (DATASOURCE_CONNECTION_ERROR), before any translation here.
 */
export const DUCKDB_ERRORS: DriverErrors = {
  isTimeout: isInterrupt,
  isConnectionFailure: () => false,
  message: (err) => firstLines(errorMessage(err)),
}

export function translateDuckdbError(err: unknown, ctx: TranslationContext): ApiError {
  return translateDriverError(err, ctx, DUCKDB_ERRORS)
}

/** Opening the files (views over them) failed: the datasource is unusable as configured. */
export function translateOpenError(err: unknown, what: string): ApiError {
  return connectionError(`${what}: ${firstLines(errorMessage(err))}`, err)
}

/** DuckDB appends the query with a caret marker; keep the message, drop the echo. */
function firstLines(message: string): string {
  const cut = message.indexOf('\n\nLINE ')
  return (cut === -1 ? message : message.slice(0, cut)).trim()
}
