import net from 'node:net'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeDir, request, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'

/**
 * Below what the fuzzer reaches (`app.inject` skips the HTTP parser): bytes on a socket. Broken
 * request lines, header smuggling (Content-Length with Transfer-Encoding), NUL and control
 * characters in headers, headers over the size limit, a TLS handshake on the plain port, bad
 * chunk sizes and random bytes. Whatever the server answers is a 4xx in the error shape, and
 * the process keeps serving.
 */
const FIXED: readonly (string | Buffer)[] = [
  'GARBAGE\r\n\r\n',
  'GET / HTTP/9.9\r\n\r\n',
  'GET\r\n\r\n',
  'G ET /health/live HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /health/live HTTP/1.1\nHost: x\n\n',
  'GET /health/live HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  'POST /api/v2/data-app/query HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 30\r\n\r\n{}',
  'POST /api/v2/data-app/query HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
  'POST /api/v2/data-app/query HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
  'GET /health/live HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n',
  'GET /health/live HTTP/1.1\r\nHost: x\r\nX Bad: 1\r\n\r\n',
  'GET /health/live HTTP/1.1\r\nHost: x\r\n : empty name\r\n\r\n',
  `GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
  `GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
  Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]),
  Buffer.from([0xff, 0xfe, 0x00, 0x00, 0x0d, 0x0a, 0x0d, 0x0a]),
  'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
]

/** Sends raw bytes on a fresh connection; resolves with whatever came back before it closed. */
function raw(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port })
    let answer = ''
    const done = () => resolve(answer)
    socket.setTimeout(1_500, () => socket.destroy())
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1')
    })
    socket.on('error', done)
    socket.on('close', done)
    socket.on('connect', () => socket.end(bytes))
  })
}

/** The violations of one raw answer ('' means the connection was closed unanswered). */
function check(answer: string): string[] {
  if (answer === '') return []
  const out: string[] = []
  const [head = '', body = ''] = answer.split('\r\n\r\n')
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0)
  if (status < 400 || status >= 500) out.push(`status line ${head.split('\r\n')[0]}`)
  if (!/\r\ncontent-type: application\/json/i.test(head)) out.push('not JSON')
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } }
    if (typeof parsed.error?.code !== 'string' || typeof parsed.error.message !== 'string') out.push(`shape ${body}`)
    if (Object.keys(parsed).length !== 1) out.push(`fields beside error: ${body}`)
  } catch {
    out.push(`body ${body.slice(0, 200)}`)
  }
  return out
}

describe('HTTP framing on a raw socket', () => {
  let server: ServerProcess
  let dataDir: string
  beforeAll(async () => {
    dataDir = tempDataDir()
    server = await startServer({ env: { DATA_DIR: dataDir } })
  })
  afterAll(async () => {
    await server?.stop()
    removeDir(dataDir)
  })

  it('answers malformed HTTP with a 4xx in the error shape, and keeps serving', async () => {
    const violations: string[] = []
    const statuses: Record<string, number> = {}
    const note = (sent: string | Buffer, answer: string) => {
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 'closed'
      statuses[status] = (statuses[status] ?? 0) + 1
      // One connection may carry two answers: a route's hook can refuse a request (401) before its
      // body is read, and the HTTP parser then refuses the malformed body after it (400, closing
      // the connection). Each must be a 4xx in the error shape.
      const answers = answer === '' ? [''] : answer.split(/(?=HTTP\/1\.[01] \d{3} )/)
      for (const one of answers) {
        for (const v of check(one)) violations.push(`${JSON.stringify(String(sent).slice(0, 80))} → ${v}`)
      }
    }
    for (const sent of FIXED) note(sent, await raw(server.port, sent))
    const samples = fc.sample(
      fc.oneof(
        fc.uint8Array({ minLength: 1, maxLength: 300 }).map((a) => Buffer.from(a)),
        fc
          .tuple(
            fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'X'),
            fc.string({ unit: 'binary', maxLength: 40 }),
            fc.array(fc.tuple(fc.string({ maxLength: 10 }), fc.string({ unit: 'binary', maxLength: 30 })), {
              maxLength: 4,
            }),
          )
          .map(([m, path, headers]) =>
            Buffer.from(
              `${m} /${path} HTTP/1.1\r\nHost: x\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`,
              'latin1',
            ),
          ),
      ),
      { numRuns: 150, seed: 7 },
    )
    for (const sent of samples) note(sent, await raw(server.port, sent))
    expect(violations).toEqual([])
    expect(server.child.exitCode).toBeNull()
    expect((await request(server.url, 'GET', '/health/live')).status).toBe(200)
    console.log(
      `[framing] ${FIXED.length + samples.length} malformed requests on raw sockets: answers ${JSON.stringify(statuses)}; ` +
        'all in the error shape; the server still serves',
    )
  })
})
