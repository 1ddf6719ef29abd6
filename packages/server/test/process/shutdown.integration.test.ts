import { describe, expect, it } from 'vitest'
import { ADMIN } from '../helpers/bootstrap.js'
import { connectUntilRefused, startServerIn, startSlowUpload } from '../helpers/draining.js'
import { useCleanups } from '../helpers/suite.js'

/**
 * docs/operations.md#graceful-shutdown: on SIGTERM the server stops accepting connections,
 * finishes in-flight requests, exits; it is forced out after SHUTDOWN_TIMEOUT_MS (30 s).
 * The in-flight request is a slow upload: headers and half a JSON body, the rest later.
 * No test-only route is needed, and the request is really mid-handling (Fastify has
 * routed it and is reading its body) when the signal arrives.
 */
describe('graceful shutdown (SIGTERM)', () => {
  const cleanups = useCleanups()

  it('refuses new connections, finishes the in-flight request, then exits 0', async () => {
    const server = await startServerIn(cleanups)
    const upload = await startSlowUpload(server.port, '/api/v2/admin-account', ADMIN)

    const signalled = performance.now()
    server.kill('SIGTERM')
    await server.waitForLog((l) => String(l.msg).startsWith('shutting down'))
    // new connections are refused: the listening socket closes right after the signal (one
    // that races it is answered 503, never served)
    const attempts = await connectUntilRefused(server.port)
    expect(attempts.at(-1)).toBe('refused')
    for (const attempt of attempts) expect(['refused', 'reset', 'HTTP/1.1 503 Service Unavailable']).toContain(attempt)
    // the process waits for the in-flight request rather than exiting
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(server.child.exitCode).toBeNull()

    upload.sendRest()
    const outcome = await upload.outcome
    expect(outcome).toMatchObject({ status: 200 })
    expect(JSON.parse((outcome as { body: string }).body).data.accessToken).toMatch(/^ey/)

    const exit = await server.exited
    const drainMs = Math.round(exit.at - signalled)
    expect(exit).toMatchObject({ code: 0, signal: null })
    expect(server.logs.map((l) => l.msg)).toContain('stopped')
    console.log(
      `[shutdown] new connections after SIGTERM: ${attempts.join(', ')}; in-flight upload finished with ${(outcome as { status: number }).status}; exit 0 ${drainMs} ms after SIGTERM (300 ms of it waiting on the client)`,
    )
  })

  it('forces the exit (code 1) after SHUTDOWN_TIMEOUT_MS when a request never finishes', async () => {
    const server = await startServerIn(cleanups, { SHUTDOWN_TIMEOUT_MS: '1500' })
    const upload = await startSlowUpload(server.port, '/api/v2/admin-account', ADMIN) // never completed

    const signalled = performance.now()
    server.kill('SIGTERM')
    const exit = await server.exited
    const elapsedMs = Math.round(exit.at - signalled)
    expect(exit).toMatchObject({ code: 1, signal: null })
    expect(elapsedMs).toBeGreaterThanOrEqual(1400)
    expect(elapsedMs).toBeLessThan(2500)
    expect(server.logs.map((l) => l.msg)).toContain('drain timed out; forcing exit')
    expect(await upload.outcome).toHaveProperty('error') // the connection died with the process
    console.log(`[shutdown] SHUTDOWN_TIMEOUT_MS=1500 with a stuck upload: exit 1 ${elapsedMs} ms after SIGTERM`)
  })
})
