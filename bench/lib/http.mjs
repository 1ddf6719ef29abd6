/** One JSON request; throws unless the answer is 200 (the bench's setup must not half-succeed). */
export async function api(base, method, path, { body, token } = {}) {
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
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`)
  return text ? JSON.parse(text) : undefined
}

/** Like `api`, for timing: returns the elapsed ms of one request, with the body read. */
export async function timed(base, method, path, options) {
  const started = performance.now()
  await api(base, method, path, options)
  return performance.now() - started
}
