import net from 'node:net'
import pg from 'pg'

/**
 * Live-service detection for tests. Locally a missing service skips its suites loudly;
 * under CI=true a missing service fails the run instead of silently passing.
 */
export const isCI = process.env.CI === 'true'

export function reachable(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(timeoutMs, () => done(false))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}

/** Resolves whether the service is there; throws under CI when it is not. */
export async function requireService(name: string, host: string, port: number): Promise<boolean> {
  if (await reachable(host, port)) return true
  const message = `${name} is not reachable at ${host}:${port}`
  if (isCI) throw new Error(`${message}; CI=true requires it`)
  console.warn(`\n  ⚠ SKIPPING ${name} tests: ${message}\n`)
  return false
}

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

const postgresUrl = new URL(POSTGRES_URL)

/** POSTGRES_URL's server and user, for credentials a test hands to a connector. */
export const POSTGRES = {
  host: postgresUrl.hostname,
  port: Number(postgresUrl.port || 5432),
  user: decodeURIComponent(postgresUrl.username),
} as const

/** Runs `work` on a connection of its own to `database` (default POSTGRES_URL's) on POSTGRES_URL's server, then closes it. */
export async function withPostgres<T>(work: (client: pg.Client) => Promise<T>, database?: string): Promise<T> {
  const url = new URL(POSTGRES_URL)
  if (database !== undefined) url.pathname = `/${encodeURIComponent(database)}`
  const client = new pg.Client({ connectionString: url.toString() })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}
