import http from 'node:http'

/** One JSON request; throws unless the answer is `status`, 200 by default (the bench's setup must not half-succeed). */
export async function api(base, method, path, { body, token, status = 200 } = {}) {
  const headers = {}
  if (token) headers.authorization = `Bearer ${token}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  })
  const text = await res.text()
  if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`)
  return text ? JSON.parse(text) : undefined
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })

/**
 * For timing one request at a time: node:http on one kept-alive connection (fetch adds ~0.3–0.5
 * ms of its own per request here, which would be charged to the server). Returns the elapsed
 * ms with the body read, and the server's own `timeTaken` when the answer has one (what the
 * rest of the elapsed time is not). Throws unless the answer is 200.
 */
export function timed(base, method, path, { body, token } = {}) {
  const payload = body === undefined ? undefined : JSON.stringify(body)
  const headers = {}
  if (token) headers.authorization = `Bearer ${token}`
  if (payload !== undefined) headers['content-type'] = 'application/json'
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const req = http.request(base + path, { method, headers, agent, timeout: 120_000 }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => {
        text += chunk
      })
      res.on('end', () => {
        const ms = performance.now() - started
        if (res.statusCode !== 200)
          return reject(new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 500)}`))
        const answer = text ? JSON.parse(text) : undefined
        resolve({ ms, serverMs: typeof answer?.timeTaken === 'number' ? answer.timeTaken : undefined })
      })
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 120 s`)))
    req.on('error', reject)
    req.end(payload)
  })
}
