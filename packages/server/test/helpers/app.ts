import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import type { DestinationStream } from 'pino'
import { buildApp } from '../../src/app.js'
import { type Config, parseConfig } from '../../src/config.js'
import type { StoreKind } from '../../src/store/store.js'
import { POSTGRES_URL, requireService } from './services.js'

/** The stores every store and API suite runs against; Postgres is required under CI. */
export const storeKinds: StoreKind[] = (await requireService('PostgreSQL', '127.0.0.1', 5432))
  ? ['sqlite', 'postgres']
  : ['sqlite']

export interface TestContext {
  readonly app: FastifyInstance
  readonly config: Config
  /** Log lines written by the app, parsed. */
  readonly logs: Record<string, unknown>[]
  readonly rawLogs: string[]
  close(): Promise<void>
}

/** A throwaway database on the local PostgreSQL; dropped by the returned function. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `strata_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: POSTGRES_URL })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(POSTGRES_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL })
      await client.connect()
      await client.query(`drop database if exists ${name} with (force)`)
      await client.end()
    },
  }
}

/** A real app on a real, empty store of the given kind, with overridable environment. */
export async function createTestApp(store: StoreKind, env: Record<string, string> = {}): Promise<TestContext> {
  const dataDir = mkdtempSync(join(tmpdir(), 'strata-test-'))
  const database = store === 'postgres' ? await createPostgresDatabase() : undefined
  const config = parseConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  })
  const rawLogs: string[] = []
  const logs: Record<string, unknown>[] = []
  const logStream: DestinationStream = {
    write(line: string) {
      rawLogs.push(line)
      logs.push(JSON.parse(line) as Record<string, unknown>)
    },
  }
  const app = await buildApp(config, { logStream })
  await app.ready()
  return {
    app,
    config,
    logs,
    rawLogs,
    async close() {
      await app.close()
      await database?.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
