import { describe, expect, it } from 'vitest'
import { connectUntilRefused, startServerIn, startSlowUpload } from '../helpers/draining.js'
import { bootstrapOver, type ServerProcess } from '../helpers/process.js'
import { useCleanups } from '../helpers/suite.js'
import { sleep } from './live.js'

/**
 * docs/operations.md#graceful-shutdown: SIGTERM stops accepting, finishes in-flight requests,
 * exits (forced after 30 s). test/process/shutdown covers one in-flight request; here N of
 * them, each a slow upload (headers and half a JSON body, the rest after the signal): every
 * one completes with 200, new connections are refused meanwhile, and the process exits 0
 * well before 30 s.
 */
const N = 20

/** POST /api/v2/guest-token/create as a slow upload; resolves once the server is reading the body. */
const slowMint = (server: ServerProcess, key: string, i: number) =>
  startSlowUpload(
    server.port,
    '/api/v2/guest-token/create',
    { dataAppName: 'salesapp', clientId: `tenant-${i}` },
    { authorization: `Bearer ${key}` },
  )

describe('graceful shutdown with many requests in flight', () => {
  const cleanups = useCleanups()

  it(`finishes ${N} in-flight slow uploads with 200 after SIGTERM, refuses new connections, exits 0`, async () => {
    const server = await startServerIn(cleanups)
    const { dataAppKey } = await bootstrapOver(server.url)

    const uploads = await Promise.all(Array.from({ length: N }, (_, i) => slowMint(server, dataAppKey, i)))
    const signalled = performance.now()
    server.kill('SIGTERM')
    await server.waitForLog((l) => String(l.msg).startsWith('shutting down'))

    // new connections: refused once the listener is closed (one racing the signal may get a 503)
    const attempts = await connectUntilRefused(server.port)
    expect(attempts.at(-1)).toBe('refused')
    for (const a of attempts) expect(['refused', 'reset', 'HTTP/1.1 503 Service Unavailable']).toContain(a)
    // still draining: the process waits for its N uploads
    await sleep(500)
    expect(server.child.exitCode).toBeNull()

    for (const upload of uploads) upload.sendRest()
    const outcomes = await Promise.all(uploads.map((u) => u.outcome))
    const statuses = outcomes.map((o) => ('status' in o ? o.status : o.error))
    expect(statuses).toEqual(Array.from({ length: N }, () => 200))
    for (const o of outcomes) expect(JSON.parse((o as { body: string }).body).token).toMatch(/^gt_/)

    const exit = await server.exited
    const drainMs = Math.round(exit.at - signalled)
    expect(exit).toMatchObject({ code: 0, signal: null })
    expect(drainMs).toBeLessThan(30_000)
    console.log(
      `[shutdown] SIGTERM with ${N} slow uploads in flight: ${statuses.filter((s) => s === 200).length}/${N} answered 200; ` +
        `new connections after the signal: ${attempts.join(', ')}; exit 0 ${drainMs} ms after SIGTERM ` +
        '(500 ms of it waiting on the clients)',
    )
  })
})
