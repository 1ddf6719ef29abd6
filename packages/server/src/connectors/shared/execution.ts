/**
 * The execution core every connector runs its statements through: deadlines, server-side
 * cancel, dropping a connection that no longer answers, error translation and giving the
 * connection back. A connector supplies small hooks (how to cancel on its engine, how to drop
 * and release its connection, how its driver's errors read); the timing, the abort handling and
 * the cleanup are here, once.
 *
 * The schedule of one statement, for a `timeoutMs` limit:
 *  1. the server's own limit (statement_timeout, max_statement_time …, set by the connector)
 *     stops the statement at `timeoutMs`: the usual case, QUERY_TIMEOUT;
 *  2. `cancelGraceMs` later our own deadline fires: the connector's `cancel` hook asks the
 *     server to stop it (pg_cancel_backend, KILL QUERY, an interrupt, a TDS attention, an aborted
 *     HTTP request). Engines without a server-side limit use a grace of 0: this is the limit;
 *  3. `DESTROY_GRACE_MS` after that, a statement that still has not settled has its connection
 *     dropped (`drop` hook), so the API answers even when the server or the network does not.
 * An aborted `signal` cancels the same way at once (2, then 3) and rejects with QUERY_ERROR.
 * A connection that saw a cancel, a connection failure or a drop never goes back to its pool:
 * a late cancel must not hit the next caller's statement on the same session.
 */
import { ApiError } from '../../errors.js'
import { type DriverErrors, queryCancelled, translateDriverError } from '../errors.js'

/** ConnectorOptions.maxTenantPools default: tenant-database pools kept open at once. */
export const DEFAULT_TENANT_POOLS = 16
/** An idle pooled connection is closed after this long. */
export const IDLE_TIMEOUT_MS = 30_000
/** Time limit of the connector's own catalogue queries (introspect, databases). */
export const METADATA_TIMEOUT_MS = 60_000
/** After `timeoutMs`, when the server's own limit should have answered: our cancel. */
export const CANCEL_GRACE_MS = 1_000
/** After our cancel: the connection is presumed dead and dropped. */
export const DESTROY_GRACE_MS = 3_000
/** Drivers' own request timeouts: a backstop only, every statement has a deadline of ours. */
export const BACKSTOP_TIMEOUT_MS = 10 * 60_000

/** What happened to one statement, as its hooks and its work see it. */
export interface StatementState {
  /** Our deadline fired (the server's own limit did not answer first). */
  readonly timedOut: boolean
  /** The caller's signal fired. */
  readonly aborted: boolean
}

/** Passed to the work: the state, and a way to keep the connection out of the pool afterwards. */
export interface Statement extends StatementState {
  /** The connection must not serve another statement (a cut-off stream, a changed session). */
  discard(): void
}

export interface Outcome extends StatementState {
  /** The driver reported the connection unusable, or it was dropped. */
  readonly broken: boolean
  /** Nothing happened that would make the connection unsafe for the next caller. */
  readonly reusable: boolean
}

export interface GuardOptions {
  readonly timeoutMs: number
  readonly signal?: AbortSignal | undefined
  /** How long after `timeoutMs` our deadline fires; 0 where the engine has no limit of its own. */
  readonly cancelGraceMs: number
  /** A connection attempt: our deadline is a connection failure, and so is every error. */
  readonly connecting?: boolean
  readonly errors: DriverErrors
  /** Never repeated in an error message (the password). */
  readonly secrets: readonly (string | undefined)[]
  /** Asks the engine to stop the statement. Fire and forget: must not throw. */
  readonly cancel: () => void
  /** Drops the connection of a statement the cancel did not stop. Absent: the cancel is final. */
  readonly drop?: () => void
  /** Always called once the statement settled (after the error, if any, is translated). */
  readonly release?: (outcome: Outcome) => void
}

/**
 * Runs `work` under the schedule above and translates what it throws: an ApiError passes
 * through as it is; a driver error becomes the typed error (`translateDriverError`).
 */
export async function guarded<T>(options: GuardOptions, work: (statement: Statement) => Promise<T>): Promise<T> {
  let timedOut = false
  let aborted = false
  let broken = false
  let discarded = false
  let settled = false
  let dropTimer: ReturnType<typeof setTimeout> | undefined
  const statement: Statement = {
    get timedOut() {
      return timedOut
    },
    get aborted() {
      return aborted
    },
    discard: () => {
      discarded = true
    },
  }
  const cancel = () => {
    options.cancel()
    if (options.drop && dropTimer === undefined) {
      dropTimer = setTimeout(() => {
        if (settled) return
        broken = true
        options.drop?.()
      }, DESTROY_GRACE_MS)
    }
  }
  const deadline = setTimeout(() => {
    if (settled) return
    timedOut = true
    cancel()
  }, options.timeoutMs + options.cancelGraceMs)
  const onAbort = () => {
    if (settled) return
    aborted = true
    cancel()
  }
  const { signal } = options
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    // Aborted while the connection was being acquired: the listener came too late to hear it.
    if (signal?.aborted) throw queryCancelled(signal.reason)
    return await work(statement)
  } catch (err) {
    if (err instanceof ApiError) throw err
    if (options.errors.isConnectionFailure(err)) broken = true
    throw translateDriverError(
      err,
      { timeoutMs: options.timeoutMs, timedOut, aborted, connecting: options.connecting, secrets: options.secrets },
      options.errors,
    )
  } finally {
    settled = true
    clearTimeout(deadline)
    clearTimeout(dropTimer)
    signal?.removeEventListener('abort', onAbort)
    options.release?.({
      timedOut,
      aborted,
      broken,
      reusable: !(broken || discarded || timedOut || aborted),
    })
  }
}

/** Before anything is acquired: an already aborted signal is a cancelled query. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw queryCancelled(signal.reason)
}

/** `maxRows` is the API's row cap: a whole number, never from a request. */
export function checkMaxRows(maxRows: number): number {
  if (!Number.isSafeInteger(maxRows) || maxRows < 0) throw new RangeError('maxRows must be a whole number')
  return maxRows
}
