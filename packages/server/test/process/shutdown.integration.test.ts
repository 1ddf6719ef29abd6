import { once } from 'node:events'
import http from 'node:http'
import net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { removeDir, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'

/**
 * DESIGN.md §3 and the spec's Limits: on SIGTERM the server stops accepting connections,
 * finishes in-flight requests, exits; it is forced out after SHUTDOWN_TIMEOUT_MS (30 s).
 * The in-flight request is a slow upload: headers and half a JSON body, the rest later.
 * No test-only route is needed, and the request is really mid-handling (Fastify has
 * routed it and is reading its body) when the signal arrives.
 */
const ADMIN = { firstName: 'Alice', email: 'alice@example.com', password: 'Str0ng!Pass', companyName: 'Acme' }

interface SlowUpload {
  readonly request: http.ClientRequest
  /** The server's answer, or the error that ended the request. */
  readonly outcome: Promise<{ status: number; body: string } | { error: string }>
  sendRest(): void
}

/** Starts POST /api/v2/admin-account, and resolves once the server has read its headers. */
async function startSlowUpload(server: ServerProcess): Promise<SlowUpload> {
  const body = Buffer.from(JSON.stringify(ADMIN))
  const half = Math.floor(body.length / 2)
  const request = http.request({
    host: '127.0.0.1',
    port: server.port,
    method: 'POST',
    path: '/api/v2/admin-account',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': body.length, expect: '100-continue' },
  })
  const outcome = new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    request.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
      res.on('error', (err) => resolve({ error: err.message }))
    })
    request.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }))
  })
  request.flushHeaders()
  // "100 Continue" comes back once the server has parsed the headers and begun handling.
  await once(request, 'continue')
  request.write(body.subarray(0, half))
  return { request, outcome, sendRest: () => request.end(body.subarray(half)) }
}

/**
 * How a brand-new connection fares: 'refused' (nothing listens), 'reset' (closed unanswered)
 * or the status line it was answered with.
 */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port })
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' ? 'refused' : 'reset'))
    socket.once('connect', () => {
      socket.write('GET /health/live HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n')
      let answered = ''
      socket.on('data', (chunk) => {
        answered += chunk.toString()
      })
      socket.once('close', () => resolve(answered.split('\r\n')[0] || 'reset'))
    })
  })
}

describe('graceful shutdown (SIGTERM)', () => {
  const cleanups: (() => Promise<void> | void)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  async function start(env: Record<string, string> = {}): Promise<ServerProcess> {
    const dataDir = tempDataDir()
    cleanups.push(() => removeDir(dataDir))
    const server = await startServer({ env: { DATA_DIR: dataDir, ...env } })
    cleanups.push(async () => void (await server.stop(2_000)))
    return server
  }

  it('refuses new connections, finishes the in-flight request, then exits 0', async () => {
    const server = await start()
    const upload = await startSlowUpload(server)

    const signalled = performance.now()
    server.kill('SIGTERM')
    await server.waitForLog((l) => String(l.msg).startsWith('shutting down'))
    // new connections are refused: the listening socket closes right after the signal (one
    // that races it is answered 503, never served)
    const attempts = [await tryConnect(server.port)]
    while (attempts.at(-1) !== 'refused' && attempts.length < 50) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      attempts.push(await tryConnect(server.port))
    }
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
    const server = await start({ SHUTDOWN_TIMEOUT_MS: '1500' })
    const upload = await startSlowUpload(server) // never completed

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
