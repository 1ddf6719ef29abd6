import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import type { StoreKind } from '../../src/store/store.js'
import { type Analytics, setupAnalytics } from './analytics.js'
import { createTestApp, type TestContext } from './app.js'
import { createPgWarehouse, type PgWarehouse } from './warehouse.js'

/**
 * The setup most API suites share, as vitest hooks registered by one call in a `describe`:
 * a PostgreSQL warehouse for the whole suite (helpers/warehouse.ts), and a test app on an
 * empty store of its own (helpers/app.ts), with or without the analytics of
 * helpers/analytics.ts on it.
 *
 * The values exist only once the hooks have run, so what these functions return are stand-ins:
 * `const { wh, t, a } = useAnalytics(store)` in the describe, then every property read
 * (`a.call`, `t.app`, `wh.schema` …) inside a hook or a test reaches the current value. A read
 * outside them (while the file is collected) throws.
 */
export interface SuiteOptions {
  /** Environment of the app (createTestApp). */
  readonly env?: Record<string, string>
  /**
   * 'test' (the default): a new app on a new store, before each test, closed after it.
   * 'suite': one app for the whole describe, created before its first test, closed after its last.
   */
  readonly app?: 'test' | 'suite'
  /** Run on the new warehouse before any app is made (a datasource reads the warehouse's tables once, when created). */
  readonly prepare?: (wh: PgWarehouse) => Promise<unknown>
}

export interface WarehouseApp {
  readonly wh: PgWarehouse
  readonly t: TestContext
}

export interface AnalyticsSuite extends WarehouseApp {
  /** setupAnalytics on that app: credentials, `call`, `ok` and the dashboard embed. */
  readonly a: Analytics
}

/** The warehouse and the app, without the analytics: for suites that set up their own. */
export function useWarehouseApp(store: StoreKind, options: SuiteOptions = {}): WarehouseApp {
  const { wh, t } = register(store, options, async () => ({}))
  return { wh, t }
}

/** The warehouse, the app, and setupAnalytics(app, warehouse) on it, as often as the app is made. */
export function useAnalytics(store: StoreKind, options: SuiteOptions = {}): AnalyticsSuite {
  const { wh, t, value } = register(store, options, setupAnalytics)
  return { wh, t, a: value }
}

function register<T extends object>(
  store: StoreKind,
  { env = {}, app = 'test', prepare }: SuiteOptions,
  setup: (app: FastifyInstance, wh: PgWarehouse) => Promise<T>,
) {
  let wh: PgWarehouse | undefined
  let t: TestContext | undefined
  let value: T | undefined
  beforeAll(async () => {
    wh = await createPgWarehouse()
    await prepare?.(wh)
  })
  afterAll(async () => wh?.drop())
  const [before, after] = app === 'suite' ? [beforeAll, afterAll] : [beforeEach, afterEach]
  before(async () => {
    t = await createTestApp(store, env)
    value = await setup(t.app, wh!)
  })
  after(async () => {
    const closing = t
    t = value = undefined
    await closing?.close()
  })
  return { wh: current('wh', () => wh), t: current('t', () => t), value: current('a', () => value) }
}

/** A stand-in for a value the hooks set: each property read goes to the value of the moment. */
function current<T extends object>(name: string, get: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_, key) {
      const value = get()
      if (value === undefined) throw new Error(`${name} is set by the suite's hooks: read it in a hook or a test`)
      return Reflect.get(value, key, value)
    },
  })
}

export type Cleanup = () => Promise<void> | void

/** A list for a test to push its cleanups on: after each test they run, the last pushed first. */
export function useCleanups(): Cleanup[] {
  const cleanups: Cleanup[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return cleanups
}
