/**
 * DuckDB errors are plain Errors whose message starts with the error class, e.g.
 * `Catalog Error: Table with name x does not exist!` or `INTERRUPT Error: Interrupted!`.
 */
import type { ApiError } from '../../errors.js'
import { connectionError, errorMessage, queryCancelled, queryError, queryTimeout } from '../errors.js'

export function isInterrupt(err: unknown): boolean {
  return /^INTERRUPT Error/i.test(errorMessage(err))
}

export interface DuckdbErrorContext {
  readonly timeoutMs: number
  readonly timedOut: boolean
  readonly aborted: boolean
}

export function translateDuckdbError(err: unknown, ctx: DuckdbErrorContext): ApiError {
  if (ctx.aborted) return queryCancelled(err)
  if (ctx.timedOut || isInterrupt(err)) return queryTimeout(ctx.timeoutMs, err)
  return queryError(firstLines(errorMessage(err)), err)
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
