import { once } from 'node:events'
import http from 'node:http'
import net from 'node:net'
import { removeDir, type ServerProcess, type StartOptions, startServer, tempDataDir } from './process.js'
import type { Cleanup } from './suite.js'

/**
 * For the graceful-shutdown tests (test/process/shutdown, test/reliability/shutdown-in-flight):
 * requests really in flight when the signal arrives, and how brand-new connections fare.
 */
/**
 * The built server on a fresh data directory, both pushed on `cleanups` (useCleanups): the
 * server is stopped with 2 s of grace after the test, then the directory removed.
 */
export async function startServerIn(
  cleanups: Cleanup[],
  env: Record<string, string> = {},
  options: Omit<StartOptions, 'env'> = {},
): Promise<ServerProcess> {
  const dataDir = tempDataDir()
  cleanups.push(() => removeDir(dataDir))
  const server = await startServer({ ...options, env: { DATA_DIR: dataDir, ...env } })
  cleanups.push(async () => void (await server.stop(2_000)))
  return server
}

export type UploadOutcome = { status: number; body: string } | { error: string }

export interface SlowUpload {
  readonly request: http.ClientRequest
  /** The server's answer, or the error that ended the request. */
  readonly outcome: Promise<UploadOutcome>
  sendRest(): void
}

/**
 * POSTs `payload` as JSON to 127.0.0.1:`port` `path` as a slow upload: the headers, and half the
 * body once the server has routed the request and is reading its body ("100 Continue"); resolves
 * then. `sendRest` sends the other half. No test-only route is needed.
 */
export async function startSlowUpload(
  port: number,
  path: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<SlowUpload> {
  const body = Buffer.from(JSON.stringify(payload))
  const half = Math.floor(body.length / 2)
  const request = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path,
    agent: false,
    headers: { ...headers, 'content-type': 'application/json', 'content-length': body.length, expect: '100-continue' },
  })
  const outcome = new Promise<UploadOutcome>((resolve) => {
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
export function tryConnect(port: number): Promise<string> {
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

/** tryConnect every 20 ms until 'refused' (50 attempts at the most): every attempt's outcome, in order. */
export async function connectUntilRefused(port: number): Promise<string[]> {
  const attempts = [await tryConnect(port)]
  while (attempts.at(-1) !== 'refused' && attempts.length < 50) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    attempts.push(await tryConnect(port))
  }
  return attempts
}
