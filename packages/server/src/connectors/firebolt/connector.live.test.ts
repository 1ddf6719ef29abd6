/**
 * Opt-in live suite against a real Firebolt account, through the official SDK. Runs when
 * STRATA_LIVE_FIREBOLT_CLIENT_ID, _CLIENT_SECRET, _ACCOUNT, _DATABASE and _ENGINE are set (a
 * service account allowed to use the engine and read the database; _API_ENDPOINT optionally);
 * skipped loudly otherwise. It creates nothing: it reads the catalog and runs constant queries.
 */
import { describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { ApiError } from '../../errors.js'
import type { FireboltCredentials } from '../types.js'
import { FireboltConnector } from './connector.js'

const VARS = ['CLIENT_ID', 'CLIENT_SECRET', 'ACCOUNT', 'DATABASE', 'ENGINE'].map((v) => `STRATA_LIVE_FIREBOLT_${v}`)
const env = (name: string) => process.env[`STRATA_LIVE_FIREBOLT_${name}`]
const configured = VARS.every((v) => (process.env[v] ?? '') !== '')
if (!configured) console.warn(`firebolt live suite skipped: set ${VARS.join(', ')} to run it against a real account`)

const OPTIONS = { connectTimeoutMs: 10_000, poolMax: 2 }
const BASE = { params: [], timeoutMs: 60_000, maxRows: 100 }

describe.skipIf(!configured)('firebolt connector (live account)', () => {
  const credentials = (): FireboltCredentials => ({
    name: 'live',
    client_id: env('CLIENT_ID') ?? '',
    client_secret: env('CLIENT_SECRET') ?? '',
    account_name: env('ACCOUNT') ?? '',
    database: env('DATABASE') ?? '',
    engine_name: env('ENGINE') ?? '',
    ...(env('API_ENDPOINT') ? { apiEndpoint: env('API_ENDPOINT') } : {}),
  })

  it('connects, lists databases and introspects the configured one', async () => {
    const c = new FireboltConnector(credentials(), OPTIONS)
    try {
      await c.test()
      expect(await c.databases()).toContain(env('DATABASE'))
      expect(Array.isArray(await c.introspect())).toBe(true)
    } finally {
      await c.close()
    }
  }, 120_000)

  it('binds hostile values on the server and returns them as data', async () => {
    const c = new FireboltConnector(credentials(), OPTIONS)
    try {
      const hostile = ["'; SELECT 1; --", 'a\\b "q" $1 ? :n', 'ünïcødé 𝄞']
      const r = await c.execute('SELECT $1::TEXT AS a, $2::TEXT AS b, $3::TEXT AS c, $4::INT AS n', {
        ...BASE,
        params: [...hostile, 7],
      })
      expect(r.rows).toEqual([{ a: hostile[0], b: hostile[1], c: hostile[2], n: 7 }])
    } finally {
      await c.close()
    }
  }, 120_000)

  it('renders an instant in the session time zone, truncates weeks to Monday, caps rows', async () => {
    const c = new FireboltConnector(credentials(), OPTIONS)
    try {
      const instant = "SELECT TIMESTAMPTZ '2024-01-01 00:00:00 UTC' AS t"
      const tokyo = await c.execute(instant, { ...BASE, timezone: 'Asia/Tokyo' })
      expect(tokyo.rows).toEqual([{ t: '2024-01-01T09:00:00+09:00' }])
      const week = await c.execute("SELECT DATE_TRUNC('week', DATE '2024-01-04') AS w", BASE)
      expect(week.rows).toEqual([{ w: '2024-01-01' }])
      const capped = await c.execute('SELECT x FROM generate_series(1, 50) AS s(x)', { ...BASE, maxRows: 10 })
      expect([capped.rows.length, capped.truncated]).toEqual([10, true])
    } finally {
      await c.close()
    }
  }, 120_000)

  it('a wrong secret is DATASOURCE_CONNECTION_ERROR without the secret', async () => {
    const c = new FireboltConnector({ ...credentials(), client_secret: 'wrong-secret-live-0815' }, OPTIONS)
    try {
      const { error } = await caught(c.test())
      expect(error).toBeInstanceOf(ApiError)
      expect((error as ApiError).code).toBe('DATASOURCE_CONNECTION_ERROR')
      expect((error as ApiError).message).not.toContain('wrong-secret-live-0815')
    } finally {
      await c.close()
    }
  }, 120_000)
})
