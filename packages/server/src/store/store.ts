import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely'
import { migrations } from './migrations/index.js'
import type { Database } from './schema.js'

export type StoreKind = 'sqlite' | 'postgres'

export interface Store {
  readonly kind: StoreKind
  readonly db: Kysely<Database>
  /** Cheap round trip for readiness. */
  ping(): Promise<void>
  close(): Promise<void>
}

export interface StoreOptions {
  readonly databaseUrl: string | undefined
  readonly dataDir: string
}

/**
 * Opens the metadata store: PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR
 * (WAL, synchronous=FULL, so a write answered 200 is on disk), then applies migrations.
 * Drivers load lazily so a SQLite deployment never loads pg and vice versa.
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  // PostgreSQL: migrations run on their own connection, without the serving pool's query
  // timeout (an index on a large table may take minutes)
  const store = options.databaseUrl
    ? await openPostgres(options.databaseUrl, { max: 1, queryTimeoutMs: undefined })
    : await openSqlite(options.dataDir)
  try {
    await migrate(store.db)
  } catch (err) {
    await store.close()
    throw err
  }
  if (!options.databaseUrl) return store
  await store.close()
  return openPostgres(options.databaseUrl, { max: 10, queryTimeoutMs: METADATA_QUERY_TIMEOUT_MS })
}

/**
 * A metadata query is small: one that gets no answer for this long is on a dead or partitioned
 * connection. Fail it (SERVICE_UNAVAILABLE) rather than hang the request.
 */
const METADATA_QUERY_TIMEOUT_MS = 5_000

async function openSqlite(dataDir: string): Promise<Store> {
  const { default: SQLite } = await import('better-sqlite3')
  mkdirSync(dataDir, { recursive: true })
  const database = new SQLite(join(dataDir, 'strata.db'))
  database.pragma('journal_mode = WAL')
  database.pragma('synchronous = FULL')
  database.pragma('foreign_keys = ON')
  database.pragma('busy_timeout = 5000')
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) })
  return {
    kind: 'sqlite',
    db,
    async ping() {
      database.prepare('select 1').get()
    },
    close: () => db.destroy(),
  }
}

async function openPostgres(
  connectionString: string,
  options: { max: number; queryTimeoutMs: number | undefined },
): Promise<Store> {
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({
    connectionString,
    max: options.max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    ...(options.queryTimeoutMs ? { query_timeout: options.queryTimeoutMs } : {}),
    keepAlive: true,
    application_name: 'strata',
  })
  // An idle client that loses its server emits 'error' on the pool; without a listener
  // that would crash the process. The next query reconnects.
  pool.on('error', () => {})
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  return {
    kind: 'postgres',
    db,
    async ping() {
      await sql`select 1`.execute(db)
    },
    close: () => db.destroy(),
  }
}

async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error })
  }
}

/** True when the driver reports a UNIQUE constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

/** Driver error codes that mean "the store cannot be reached now", not "this request is wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000', // connection_exception
  '08001',
  '08003',
  '08004',
  '08006',
  'SQLITE_BUSY',
])
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connection error|Client was closed/i

/** True when a store operation failed because the store is unreachable or overloaded (retryable). */
export function isStoreUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null
  if (!e || typeof e !== 'object') return false
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true
  return typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message) && !('status' in e)
}

export const now = (): string => new Date().toISOString()
