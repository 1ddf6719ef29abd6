/**
 * Starts the chdb front (front.ts) in a child process and finds chdb. chdb is not a dependency
 * of the workspace (its engine library is about 570 MB): `scripts/install-chdb.sh` puts a pinned
 * version in `.cache/chdb` (or `$STRATA_CHDB_DIR`), and CI runs it. Where it is missing, the
 * suites that need it are skipped loudly, and fail under CI=true (requireChdb).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { isCI } from '../../../../test/helpers/services.js'
import type { FrontConfig } from './front.js'

const REPO = fileURLToPath(new URL('../../../../../../', import.meta.url))
const SERVER_DIR = fileURLToPath(new URL('../../../../', import.meta.url))
const FRONT = fileURLToPath(new URL('./front.ts', import.meta.url))

/** Where scripts/install-chdb.sh installs chdb (a relative STRATA_CHDB_DIR is the repository's, as there). */
export const CHDB_DIR = resolve(REPO, process.env.STRATA_CHDB_DIR ?? '.cache/chdb')

export interface ChdbFront {
  readonly port: number
  /** The engine's `version()`, e.g. `26.7.2.1`. */
  readonly version: string
  readonly child: ChildProcess
  /** An operator's statement (DDL, INSERT, a check) over the HTTP interface as user `default`; its answer as text. */
  admin(sql: string): Promise<string>
  stop(): Promise<void>
}

/** Whether chdb is installed; locally a missing one skips its suites loudly, under CI=true it throws. */
export function requireChdb(what: string): boolean {
  if (existsSync(`${CHDB_DIR}/node_modules/chdb/package.json`)) return true
  const message = `chdb is not installed in ${CHDB_DIR} (run scripts/install-chdb.sh)`
  if (isCI) throw new Error(`${message}; CI=true requires it for ${what}`)
  console.warn(`\n  ⚠ SKIPPING ${what}: ${message}\n`)
  return false
}

const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/** Starts a front on a free port of 127.0.0.1, letting in `users` (user → password). */
export async function startChdbFront(config: FrontConfig = { users: { default: '' } }): Promise<ChdbFront> {
  // TZ: the engine's server time zone (timezone()) is UTC, whatever the machine's
  const child = spawn(process.execPath, ['--import', 'tsx', FRONT, CHDB_DIR, JSON.stringify(config)], {
    cwd: SERVER_DIR,
    env: { ...process.env, TZ: 'UTC' },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  running.add(child)
  const stderr: string[] = []
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const ready = await new Promise<{ port: number; version: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the chdb front did not start in 60 s: ${stderr.join('')}`)),
      60_000,
    )
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer)
      resolve(JSON.parse(line) as { port: number; version: string })
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the chdb front exited (${code}) before listening: ${stderr.join('')}`))
    })
  })
  const url = `http://127.0.0.1:${ready.port}/`
  const password = config.users.default
  return {
    ...ready,
    child,
    async admin(sql) {
      const headers =
        password === undefined ? undefined : { 'X-ClickHouse-User': 'default', 'X-ClickHouse-Key': password }
      const res = await fetch(url, { method: 'POST', body: sql, ...(headers ? { headers } : {}) })
      const text = await res.text()
      if (!res.ok) throw new Error(`${sql.slice(0, 200)}: ${text}`)
      return text
    },
    async stop() {
      child.stdin?.end()
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(killer)
      running.delete(child)
    },
  }
}
