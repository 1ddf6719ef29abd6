/**
 * The execution core on its own, with hooks that record what they are asked to do and fake
 * timers driving the schedule (the live connector suites prove the engines' side).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ApiError } from '../../errors.js'
import { type DriverErrors, queryError } from '../errors.js'
import { CANCEL_GRACE_MS, DESTROY_GRACE_MS, type GuardOptions, guarded, type Outcome } from './execution.js'

const engineTimeout = Object.assign(new Error('canceling statement due to statement timeout'), { code: 'TIMEOUT' })
const lostConnection = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'LOST' })
const ERRORS: DriverErrors = {
  isTimeout: (err) => err === engineTimeout,
  isConnectionFailure: (err) => err === lostConnection,
}

interface Recorded {
  cancels: number
  drops: number
  outcome: Outcome | undefined
}

function hooks(extra: Partial<GuardOptions> = {}): { options: GuardOptions; seen: Recorded } {
  const seen: Recorded = { cancels: 0, drops: 0, outcome: undefined }
  const options: GuardOptions = {
    timeoutMs: 1000,
    cancelGraceMs: CANCEL_GRACE_MS,
    errors: ERRORS,
    secrets: ['hunter22'],
    cancel: () => {
      seen.cancels++
    },
    drop: () => {
      seen.drops++
    },
    release: (outcome) => {
      seen.outcome = outcome
    },
    ...extra,
  }
  return { options, seen }
}

/** A statement that settles only when told to (as a driver does once the server answers). */
function pending<T>() {
  let settle: { resolve: (v: T) => void; reject: (e: unknown) => void } | undefined
  const promise = new Promise<T>((resolve, reject) => {
    settle = { resolve, reject }
  })
  return { promise, ...settle! }
}

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('resolved'),
    (e: unknown) => e as ApiError,
  )

describe('guarded (the connectors’ execution core)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('a statement that finishes: its result, no cancel, the connection reusable', async () => {
    const { options, seen } = hooks()
    await expect(guarded(options, async () => 42)).resolves.toBe(42)
    expect(seen).toEqual({
      cancels: 0,
      drops: 0,
      outcome: { timedOut: false, aborted: false, broken: false, reusable: true },
    })
    vi.advanceTimersByTime(60_000)
    expect(seen.cancels).toBe(0) // the deadline was cleared
  })

  it('the server’s own limit first: its timeout error is QUERY_TIMEOUT and nothing is cancelled from our side', async () => {
    const { options, seen } = hooks()
    const error = await errorOf(guarded(options, async () => Promise.reject(engineTimeout)))
    expect([error.code, error.cause]).toEqual(['QUERY_TIMEOUT', engineTimeout])
    expect(seen.cancels).toBe(0)
    expect(seen.outcome?.reusable).toBe(true)
  })

  it('our deadline grace after timeoutMs cancels; a statement still running DESTROY_GRACE_MS later is dropped', async () => {
    const { options, seen } = hooks()
    const statement = pending<number>()
    const run = errorOf(guarded(options, () => statement.promise))
    vi.advanceTimersByTime(1000 + CANCEL_GRACE_MS - 1)
    expect(seen.cancels).toBe(0)
    vi.advanceTimersByTime(1)
    expect(seen.cancels).toBe(1)
    expect(seen.drops).toBe(0)
    vi.advanceTimersByTime(DESTROY_GRACE_MS)
    expect(seen.drops).toBe(1)
    statement.reject(lostConnection) // what a driver reports once its socket is destroyed
    const error = await run
    expect(error.code).toBe('QUERY_TIMEOUT')
    expect(seen.outcome).toEqual({ timedOut: true, aborted: false, broken: true, reusable: false })
  })

  it('a statement the cancel stopped is not dropped, and its connection is not reused (a late cancel could hit the next one)', async () => {
    const { options, seen } = hooks({ cancelGraceMs: 0 })
    const statement = pending<number>()
    const run = errorOf(guarded(options, () => statement.promise))
    vi.advanceTimersByTime(1000)
    expect(seen.cancels).toBe(1)
    statement.reject(new Error('canceling statement due to user request'))
    expect((await run).code).toBe('QUERY_TIMEOUT')
    vi.advanceTimersByTime(DESTROY_GRACE_MS * 2)
    expect(seen.drops).toBe(0)
    expect(seen.outcome).toEqual({ timedOut: true, aborted: false, broken: false, reusable: false })
  })

  it('an aborted signal cancels at once → QUERY_ERROR "cancelled"; then the drop schedule applies', async () => {
    const { options, seen } = hooks()
    const controller = new AbortController()
    const statement = pending<number>()
    const run = errorOf(guarded({ ...options, signal: controller.signal }, () => statement.promise))
    controller.abort()
    expect(seen.cancels).toBe(1)
    vi.advanceTimersByTime(DESTROY_GRACE_MS)
    expect(seen.drops).toBe(1)
    statement.reject(lostConnection)
    const error = await run
    expect([error.code, error.message]).toEqual(['QUERY_ERROR', 'The query failed: the query was cancelled'])
    expect(seen.outcome).toMatchObject({ aborted: true, reusable: false })
  })

  it('a signal aborted before the work starts (while a connection was acquired): nothing runs', async () => {
    const { options, seen } = hooks()
    const controller = new AbortController()
    controller.abort()
    const work = vi.fn(async () => 1)
    const error = await errorOf(guarded({ ...options, signal: controller.signal }, work))
    expect(error.code).toBe('QUERY_ERROR')
    expect(work).not.toHaveBeenCalled()
    expect(seen.outcome?.reusable).toBe(true) // nothing ran on it
  })

  it('errors are translated by the driver’s rules: connection failures break the connection, secrets are redacted', async () => {
    const { options, seen } = hooks()
    const lost = await errorOf(guarded(options, async () => Promise.reject(lostConnection)))
    expect([lost.code, lost.status]).toEqual(['DATASOURCE_CONNECTION_ERROR', 400])
    expect(seen.outcome).toMatchObject({ broken: true, reusable: false })
    const leaky = await errorOf(guarded(options, async () => Promise.reject(new Error('syntax error near hunter22'))))
    expect([leaky.code, leaky.message]).toEqual(['QUERY_ERROR', 'The query failed: syntax error near ***'])
    expect(seen.outcome?.reusable).toBe(true) // a query error leaves the connection usable
  })

  it('an ApiError from the work passes through as it is; the work may discard its connection', async () => {
    const { options, seen } = hooks()
    const own = queryError('only SELECT statements can run on this datasource')
    const error = await errorOf(
      guarded(options, async (statement) => {
        statement.discard()
        throw own
      }),
    )
    expect(error).toBe(own)
    expect(seen.outcome).toEqual({ timedOut: false, aborted: false, broken: false, reusable: false })
  })

  it('connecting: our deadline is a connection failure, and so is every error', async () => {
    const { options } = hooks({ connecting: true, cancelGraceMs: 0, drop: undefined })
    const statement = pending<number>()
    const run = errorOf(guarded(options, () => statement.promise))
    vi.advanceTimersByTime(1000)
    statement.reject(new Error('This operation was aborted'))
    const error = await run
    expect([error.code, error.message]).toEqual([
      'DATASOURCE_CONNECTION_ERROR',
      'Could not connect to the datasource: no answer within 1000 ms',
    ])
    const refused = await errorOf(guarded(options, async () => Promise.reject(engineTimeout)))
    expect(refused.code).toBe('DATASOURCE_CONNECTION_ERROR')
  })
})
