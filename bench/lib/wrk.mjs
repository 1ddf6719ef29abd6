import { spawn, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Whether Debian's `wrk` is on the PATH. */
export function hasWrk() {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined
}

/**
 * Makes sure `wrk` is there: installs Debian's package when it is missing (root and apt-get
 * needed). Throws with the command to run when it cannot.
 */
export function ensureWrk(log) {
  if (hasWrk()) return
  const manual = 'apt-get update && apt-get install -y wrk'
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).error) {
    throw new Error(`wrk is not installed; run: ${manual}`)
  }
  log('wrk is missing: installing Debian package wrk (apt-get)')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'wrk'],
  ]) {
    const result = spawnSync('apt-get', args, { env, encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed:\n${result.stderr}`)
  }
  if (!hasWrk()) throw new Error(`wrk still missing after apt-get; run: ${manual}`)
}

const lua = (value) =>
  `"${String(value)
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/\n/g, '\\n')}"`

/**
 * The Lua script of one load: method, JSON body and headers, and a `done` hook that prints the
 * summary as one JSON line (latencies in microseconds).
 */
function script({ method = 'GET', body, headers = {}, rotate }) {
  const lines = [`wrk.method = ${lua(method)}`]
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
  if (text !== undefined) {
    lines.push(`wrk.body = ${lua(text)}`)
    lines.push(`wrk.headers["Content-Type"] = "application/json"`)
  }
  for (const [name, value] of Object.entries(headers)) lines.push(`wrk.headers[${lua(name)}] = ${lua(value)}`)
  if (rotate) {
    // Each request's body gets the next of `count` values in place of the placeholder (each
    // thread starting elsewhere), so that concurrent requests are distinct.
    const at = text.indexOf(rotate.placeholder)
    if (at === -1) throw new Error(`rotate: ${rotate.placeholder} is not in the body`)
    lines.push(`
local prefix = ${lua(text.slice(0, at))}
local suffix = ${lua(text.slice(at + rotate.placeholder.length))}
local counter = 0
local threads = 0
setup = function(thread)
  thread:set("counter", threads * 7919)
  threads = threads + 1
end
request = function()
  counter = counter + 1
  return wrk.format(nil, nil, nil, prefix .. tostring(counter % ${rotate.count}) .. suffix)
end
`)
  }
  lines.push(`
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('BENCH_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"non2xx":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"timeouts":%d,"p50Us":%d,"p90Us":%d,"p99Us":%d,"meanUs":%.1f,"maxUs":%d}\\n',
    summary.requests, summary.duration, summary.bytes, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.mean, latency.max))
end
`)
  return lines.join('\n')
}

/**
 * One wrk run against `url`. Returns req/s, p50/p99 (ms) and the error counts; a run with any
 * non-2xx answer or socket error is reported as such (its numbers are not comparable).
 */
export function runWrk({
  url,
  method,
  body,
  headers,
  rotate,
  seconds,
  connections = 50,
  threads = 2,
  dir,
  name = 'load',
}) {
  const file = join(dir, `${name}.lua`)
  writeFileSync(file, script({ method, body, headers, rotate }))
  const args = [
    '-t',
    String(threads),
    '-c',
    String(connections),
    '-d',
    `${seconds}s`,
    '--timeout',
    '10s',
    '-s',
    file,
    url,
  ]
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (c) => {
      out += c
    })
    child.stderr.setEncoding('utf8').on('data', (c) => {
      err += c
    })
    child.once('error', reject)
    child.once('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('BENCH_JSON '))
      if (code !== 0 || !line) {
        reject(new Error(`wrk ${args.join(' ')} exited ${code}:\n${out}${err}`))
        return
      }
      const s = JSON.parse(line.slice('BENCH_JSON '.length))
      const errors = s.non2xx + s.connectErrors + s.readErrors + s.writeErrors + s.timeouts
      resolve({
        rps: s.requests / (s.durationUs / 1e6),
        p50Ms: s.p50Us / 1000,
        p99Ms: s.p99Us / 1000,
        requests: s.requests,
        errors,
        non2xx: s.non2xx,
      })
    })
  })
}
