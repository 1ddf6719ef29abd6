import { once } from 'node:events'
import http from 'node:http'
import net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { bootstrapOver, removeDir, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'
import { sleep } from './live.js'

/**
 * DESIGN.md §3 and the spec's Limits: SIGTERM stops accepting, finishes in-flight requests,
 * exits (forced after 30 s). test/process/shutdown covers one in-flight request; here N of
 * them, each a slow upload (headers and half a JSON body, the rest after the signal): every
 * one completes with 200, new connections are refused meanwhile, and the process exits 0
 * well before 30 s.
 */
const N = 20

interface SlowUpload {
  readonly outcome: Promise<{ status: number; body: string } | { error: string }>
  sendRest(): void
}

/** POST /api/v2/guest-token/create as a slow upload; resolves once the server is reading the body. */
async function slowMint(server: ServerProcess, key: string, i: number): Promise<SlowUpload> {
  const body = Buffer.from(JSON.stringify({ dataAppName: 'salesapp', clientId: `tenant-${i}` }))
  const half = Math.floor(body.length / 2)
  const req = http.request({
    host: '127.0.0.1',
    port: server.port,
    method: 'POST',
    path: '/api/v2/guest-token/create',
    agent: false,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'content-length': body.length,
      expect: '100-continue',
    },
  })
  const outcome = new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
      res.on('error', (err) => resolve({ error: err.message }))
    })
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }))
  })
  req.flushHeaders()
  await once(req, 'continue') // the server has routed the request and is reading its body
  req.write(body.subarray(0, half))
  return { outcome, sendRest: () => req.end(body.subarray(half)) }
}

/** 'refused', 'reset', or the status line a brand-new connection was answered with. */
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

describe('graceful shutdown with many requests in flight', () => {
  const cleanups: (() => Promise<void> | void)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  it(`finishes ${N} in-flight slow uploads with 200 after SIGTERM, refuses new connections, exits 0`, async () => {
    const dataDir = tempDataDir()
    cleanups.push(() => removeDir(dataDir))
    const server = await startServer({ env: { DATA_DIR: dataDir } })
    cleanups.push(async () => void (await server.stop(2_000)))
    const { dataAppKey } = await bootstrapOver(server.url)

    const uploads = await Promise.all(Array.from({ length: N }, (_, i) => slowMint(server, dataAppKey, i)))
    const signalled = performance.now()
    server.kill('SIGTERM')
    await server.waitForLog((l) => String(l.msg).startsWith('shutting down'))

    // new connections: refused once the listener is closed (one racing the signal may get a 503)
    const attempts = [await tryConnect(server.port)]
    while (attempts.at(-1) !== 'refused' && attempts.length < 50) {
      await sleep(20)
      attempts.push(await tryConnect(server.port))
    }
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
