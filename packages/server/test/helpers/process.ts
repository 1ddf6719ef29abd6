import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

/**
 * Live-process helpers: run the production build (`dist/`) as a child process, the way
 * `npm start` does, and talk to it over real sockets. test/global-setup.ts builds dist first.
 */
export const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url))
export const MAIN_JS = join(SERVER_DIR, 'dist', 'main.js')
export const CLI_JS = join(SERVER_DIR, 'dist', 'cli.js')

export type LogLine = Record<string, unknown> & { msg?: string }

export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  /** performance.now() when the process exited. */
  readonly at: number
}

export interface ServerProcess {
  readonly child: ChildProcess
  readonly pid: number
  /** `http://127.0.0.1:<port>` plus BASE_PATH, from the 'Strata is ready' log line. */
  readonly url: string
  readonly port: number
  /** Every stdout line, and those that parsed as JSON log lines. */
  readonly lines: string[]
  readonly logs: LogLine[]
  readonly stderr: string[]
  readonly exited: Promise<Exit>
  /** Resolves with the first log line (seen or future) matching `match`. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>
  kill(signal: NodeJS.Signals): void
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<Exit>
}

export interface StartOptions {
  /** Added to the defaults below; DATA_DIR is required (see tempDataDir). */
  readonly env: Record<string, string>
  /** The script to run (dist/main.js) and its arguments. */
  readonly script?: string
  readonly args?: readonly string[]
  /** Node's own options before the script (`--import` of a fixture). */
  readonly nodeArgs?: readonly string[]
  readonly readyTimeoutMs?: number
}

const running = new Set<ChildProcess>()
// Never leave a server behind, even when a test fails between start and stop.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/** A fresh temporary directory; remove it with removeDir. */
export const tempDataDir = (): string => mkdtempSync(join(tmpdir(), 'strata-proc-'))
export const removeDir = (dir: string): void => rmSync(dir, { recursive: true, force: true })

/**
 * The child's environment: only what the server needs (the test runner's own variables,
 * e.g. a DATABASE_URL, must not leak in), a free port chosen by the OS, no demo.
 */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: Record<string, string> = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DEMO: 'false' }
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'SYSTEMROOT']) {
    const value = process.env[name]
    if (value !== undefined) base[name] = value
  }
  return { ...base, ...env }
}

/** Starts the built server and resolves once it logged 'Strata is ready'. */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  if (!options.env.DATA_DIR) throw new Error('startServer: env.DATA_DIR is required')
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), options.script ?? MAIN_JS, ...(options.args ?? [])],
    {
      env: childEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  running.add(child)
  const lines: string[] = []
  const logs: LogLine[] = []
  const stderr: string[] = []
  const waiters = new Set<(line: LogLine) => void>()

  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line)
    let parsed: LogLine
    try {
      parsed = JSON.parse(line) as LogLine
    } catch {
      return
    }
    logs.push(parsed)
    for (const waiter of waiters) waiter(parsed)
  })
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line))

  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child)
      resolve({ code, signal, at: performance.now() })
    })
  })

  const output = () => [...lines, ...stderr].join('\n')
  const waitForLog = (match: (line: LogLine) => boolean, timeoutMs = 10_000): Promise<LogLine> => {
    const seen = logs.find(match)
    if (seen) return Promise.resolve(seen)
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer)
        waiters.delete(waiter)
      }
      const waiter = (line: LogLine) => {
        if (!match(line)) return
        done()
        resolve(line)
      }
      const timer = setTimeout(() => {
        done()
        reject(new Error(`no matching log line within ${timeoutMs} ms; output:\n${output()}`))
      }, timeoutMs)
      waiters.add(waiter)
      void exited.then((exit) => {
        if (!waiters.has(waiter)) return
        done()
        reject(new Error(`the server exited (${exit.code ?? exit.signal}) first; output:\n${output()}`))
      })
    })
  }

  let ready: LogLine
  try {
    ready = await waitForLog((l) => l.msg === 'Strata is ready', options.readyTimeoutMs ?? 20_000)
  } catch (err) {
    child.kill('SIGKILL')
    throw err
  }
  const url = String(ready.address)
  const kill = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
  }
  return {
    child,
    pid: child.pid!,
    url,
    port: Number(new URL(url).port),
    lines,
    logs,
    stderr,
    exited,
    waitForLog,
    kill,
    async stop(graceMs = 10_000) {
      kill('SIGTERM')
      const timer = setTimeout(() => kill('SIGKILL'), graceMs)
      const exit = await exited
      clearTimeout(timer)
      return exit
    },
  }
}

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `node dist/cli.js …args` to completion. */
export function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI_JS, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  return collectOutput(child).finally(() => running.delete(child))
}

/** A spawned child's exit code and whole output (spawned with stdout and stderr piped). */
export function collectOutput(child: ChildProcess): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
  })
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}

export interface JsonResponse {
  readonly status: number
  readonly headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: test convenience, the shapes are asserted
  readonly body: any
}

/** One JSON request to a running server; rejects only when there is no HTTP answer. */
export async function request(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(15_000),
  })
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: res.status, headers: res.headers, body }
}

/** The admin, a service token and a data app, created over HTTP. */
export async function bootstrapOver(base: string, headers: Record<string, string> = {}, dataAppName = 'salesapp') {
  const ok = (res: JsonResponse, what: string) => {
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body
  }
  const admin = { firstName: 'Alice', email: 'alice@example.com', password: 'Str0ng!Pass', companyName: 'Acme' }
  const { data } = ok(await request(base, 'POST', '/api/v2/admin-account', { body: admin, headers }), 'admin')
  const token = ok(
    await request(base, 'POST', '/api/v2/service-token', { body: {}, token: data.accessToken, headers }),
    'service token',
  )
  const app = ok(
    await request(base, 'POST', '/api/v2/data-app', { body: { name: dataAppName }, token: token.key, headers }),
    'data app',
  )
  return {
    admin,
    accessToken: data.accessToken as string,
    serviceToken: token.key as string,
    dataAppKey: app.key as string,
  }
}
