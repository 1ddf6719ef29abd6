import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import type { StoreKind } from '../../src/store/store.js'
import { createPostgresDatabase } from '../helpers/app.js'
import { bootstrapOver, removeDir, request, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'
import { requireService } from '../helpers/services.js'
import { useCleanups } from '../helpers/suite.js'
import {
  ACCESS_SETTINGS,
  csvDataset,
  expectOk,
  FILE_TENANTS,
  inBatches,
  setupFilesAnalytics,
  sleep,
  smallDocument,
} from './live.js'

/**
 * docs/operations.md#durability: writes acknowledged with 200 survive kill -9 of the server (both stores),
 * for the analytics writes (test/process/durability covers API keys): a stream of embed
 * creations, guest-token mints (sealed, and stored through group commit when their claims are
 * too large to seal) and dashboard imports from several clients; the
 * server is SIGKILLed mid-stream and restarted on the same store. Every write answered 200
 * must be there (embeds listed, tokens still load the runtime and query as their tenant,
 * imported dashboards exportable, each whole) and the only other rows are whole copies of
 * writes that were in flight at the kill.
 */
const stores: StoreKind[] = (await requireService('PostgreSQL', '127.0.0.1', 5432))
  ? ['sqlite', 'postgres']
  : ['sqlite']

const WRITERS = { embed: 3, token: 4, import: 3 }
/** 300 × 20 characters: claims too large for a sealed token, so the token is stored. */
const LONG_FILTER_LIST = Array.from({ length: 300 }, (_, i) => `hidden-filter-${String(i).padStart(5, '0')}`)
const KILL_AT_ACKS = 300
const KILL_AFTER_MS = 3_000

type Kind = 'embed' | 'token' | 'import'

describe.each(stores)('kill -9 during embed, guest-token and import writes on %s', (store) => {
  const cleanups = useCleanups()

  it('keeps every acknowledged write, whole, and nothing half-written', { timeout: 90_000 }, async () => {
    const dataDir = tempDataDir()
    const csv = csvDataset()
    cleanups.push(
      () => removeDir(dataDir),
      () => removeDir(csv),
    )
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      FILES_ROOT: csv,
      RATE_LIMIT: '0',
      AUTH_ROUTE_RATE_LIMIT: '0',
    }
    let databaseUrl: string | undefined
    if (store === 'postgres') {
      const database = await createPostgresDatabase()
      cleanups.push(database.drop)
      env.DATABASE_URL = databaseUrl = database.url
    }
    const first: ServerProcess = await startServer({ env })
    cleanups.push(async () => void (await first.stop()))
    const creds = await bootstrapOver(first.url)
    const { embedId } = await setupFilesAnalytics(first.url, creds)
    // each tenant's revenue, to check that a surviving token still carries its own tenant
    const revenueOf: Record<string, number> = {}
    for (const tenant of FILE_TENANTS) {
      const res = expectOk(
        await request(first.url, 'POST', '/api/v2/data-app/query', {
          token: creds.dataAppKey,
          body: { embedId, metricId: 'orders', clientId: tenant, dashboardFilter: { period: 'All time' } },
        }),
        'query',
      )
      revenueOf[tenant] = Number(res.data[0].orders)
    }

    const acked = {
      embed: new Map<string, string>(), // embed id → name
      token: new Map<string, string>(), // token → tenant
      import: new Map<string, string>(), // dashboard id → name
    }
    let ackedStoredTokens = 0
    const inFlight = { embed: new Set<string>(), token: new Set<string>(), import: new Map<string, string>() }
    const unexpected: string[] = []
    let writing = true

    const send = async (path: string, token: string, body: object) => {
      try {
        return await request(first.url, 'POST', path, { token, body })
      } catch {
        return undefined // no answer: the server is gone, the write was never acknowledged
      }
    }
    const writer = async (kind: Kind, w: number) => {
      for (let i = 0; writing; i++) {
        const tag = `${kind[0]}${w}-${i}`
        if (kind === 'embed') {
          inFlight.embed.add(tag)
          const res = await send('/api/v2/data-app/embeds', creds.dataAppKey, {
            dashboardId: 'sales-overview',
            embedType: 'dashboard',
            workspaceName: 'main',
            name: tag,
            accessSettings: ACCESS_SETTINGS,
          })
          if (!res) return
          inFlight.embed.delete(tag)
          if (res.status !== 200) return void unexpected.push(`${kind} ${res.status} ${JSON.stringify(res.body)}`)
          acked.embed.set(res.body.id, tag)
        } else if (kind === 'token') {
          const tenant = FILE_TENANTS[i % FILE_TENANTS.length] as string
          inFlight.token.add(tag)
          // every other token carries claims too large to seal: those are stored (group commit)
          const stored = i % 2 === 1
          const res = await send('/api/v2/guest-token/create', creds.dataAppKey, {
            dataAppName: 'salesapp',
            clientId: tenant,
            params: { userIdentifier: tag, ...(stored ? { hideDashboardFilters: LONG_FILTER_LIST } : {}) },
          })
          if (!res) return
          inFlight.token.delete(tag)
          if (res.status !== 200) return void unexpected.push(`${kind} ${res.status} ${JSON.stringify(res.body)}`)
          acked.token.set(res.body.token, tenant)
          if (stored) ackedStoredTokens++
        } else {
          const name = `Dashboard ${tag}`
          inFlight.import.set(tag, name)
          const res = await send('/api/v2/data-app/import-dashboard', creds.serviceToken, {
            workspaceName: 'main',
            dashboardId: tag,
            importDashboardData: smallDocument(name),
          })
          if (!res) return
          inFlight.import.delete(tag)
          if (res.status !== 200) return void unexpected.push(`${kind} ${res.status} ${JSON.stringify(res.body)}`)
          acked.import.set(tag, name)
        }
      }
    }

    const started = performance.now()
    const writers = (Object.keys(WRITERS) as Kind[]).flatMap((kind) =>
      Array.from({ length: WRITERS[kind] }, (_, w) => writer(kind, w)),
    )
    const total = () => acked.embed.size + acked.token.size + acked.import.size
    while (total() < KILL_AT_ACKS && performance.now() - started < KILL_AFTER_MS && unexpected.length === 0) {
      await sleep(5)
    }
    first.kill('SIGKILL')
    const exit = await first.exited
    await Promise.all(writers)
    writing = false
    const elapsedMs = Math.round(performance.now() - started)
    expect(unexpected).toEqual([])
    expect(exit.signal).toBe('SIGKILL')
    const inFlightAtKill = inFlight.embed.size + inFlight.token.size + inFlight.import.size

    const second = await startServer({ env })
    cleanups.push(async () => void (await second.stop()))

    // 1. embeds: every acknowledged one is listed with its name; others only in-flight ones
    const list = expectOk(
      await request(second.url, 'GET', '/api/v2/data-app/embeds', { token: creds.dataAppKey }),
      'list',
    )
    const listed = new Map<string, string>(
      (list.data as { embedId: string; name: string }[]).map((e) => [e.embedId, e.name]),
    )
    const lostEmbeds = [...acked.embed].filter(([id, name]) => listed.get(id) !== name)
    expect(lostEmbeds, 'acknowledged embeds missing or changed after kill -9').toEqual([])
    const extraEmbeds = [...listed].filter(([id]) => !acked.embed.has(id) && id !== embedId)
    for (const [id, name] of extraEmbeds) expect(inFlight.embed.has(name), `unexpected embed ${id} ${name}`).toBe(true)

    // 2. guest tokens: every acknowledged one still loads the runtime, and queries as its own tenant
    const tokens = [...acked.token]
    const loads = await inBatches(
      tokens,
      25,
      async ([token]) => (await request(second.url, 'GET', `/api/v2/embed/runtime/${embedId}`, { token })).status,
    )
    expect(loads.filter((s) => s !== 200).length, 'acknowledged guest tokens that no longer load').toBe(0)
    const sample = tokens.filter((_, i) => i % Math.max(1, Math.floor(tokens.length / 40)) === 0)
    const queried = await inBatches(sample, 10, async ([token, tenant]) => {
      const res = await request(second.url, 'POST', `/api/v2/embed/runtime/${embedId}/query`, {
        token,
        body: { metricId: 'orders', dashboardFilter: { period: 'All time' } },
      })
      return res.status === 200 && Number(res.body.data[0].orders) === revenueOf[tenant]
    })
    expect(queried.every(Boolean), 'a surviving token answers as another tenant').toBe(true)

    // 3. imports: every acknowledged dashboard exports whole; an in-flight one is whole or absent
    const exportOf = (dashboardId: string) =>
      request(second.url, 'POST', '/api/v2/data-app/export-dashboard', {
        token: creds.serviceToken,
        body: { dashboardId, workspaceName: 'main' },
      })
    const exported = await inBatches([...acked.import], 25, async ([id, name]) => {
      const res = await exportOf(id)
      return res.status === 200 && res.body.data.name === name && res.body.data.metrics.length === 2
    })
    expect(exported.filter((ok) => !ok).length, 'acknowledged imports missing or torn').toBe(0)
    let inFlightImportsKept = 0
    for (const [id, name] of inFlight.import) {
      const res = await exportOf(id)
      if (res.status === 200) {
        inFlightImportsKept++
        expect(res.body.data.name).toBe(name)
        expect(res.body.data.metrics.map((m: { name: string }) => m.name)).toEqual([
          `Revenue of ${name}`,
          `Orders of ${name}`,
        ])
      } else expect(res.status).toBe(400)
    }
    await second.stop()

    // 4. the store itself: every row whole, every reference resolved, counts as expected
    const rows = await readStore(store, dataDir, databaseUrl)
    const dashboards = new Map(rows.dashboards.map((d) => [d.id, d]))
    for (const d of rows.dashboards) {
      const doc = JSON.parse(d.document) as { name: string; metrics: unknown[] }
      expect(doc.name, `dashboard row ${d.dashboard_id}`).toBe(d.name)
    }
    for (const e of rows.embeds) {
      expect(dashboards.has(e.dashboard_row_id), `embed ${e.embed_id} without its dashboard`).toBe(true)
      expect(JSON.parse(e.access_settings)).toMatchObject({ datamartName: 'sales' })
    }
    for (const g of rows.guest_tokens) expect(JSON.parse(g.claims)).toHaveProperty('clientId')
    const tokenRows = rows.guest_tokens.length
    expect(ackedStoredTokens).toBeGreaterThan(0)
    expect(tokenRows).toBeGreaterThanOrEqual(ackedStoredTokens)
    expect(tokenRows).toBeLessThanOrEqual(ackedStoredTokens + WRITERS.token)
    expect(rows.dashboards.length).toBe(1 + acked.import.size + inFlightImportsKept)

    const summary =
      `[durability/${store}] SIGKILL after ${elapsedMs} ms with ${total()} writes acknowledged ` +
      `(${acked.embed.size} embeds, ${acked.token.size} guest tokens of which ${ackedStoredTokens} stored, ${acked.import.size} dashboard imports) ` +
      `and ${inFlightAtKill} in flight; after restart: ${acked.embed.size - lostEmbeds.length}/${acked.embed.size} embeds listed, ` +
      `${loads.filter((s) => s === 200).length}/${tokens.length} tokens load the runtime (${sample.length} queried as their tenant), ` +
      `${exported.filter(Boolean).length}/${acked.import.size} imports exportable; in flight and also committed: ` +
      `${extraEmbeds.length} embeds, ${tokenRows - ackedStoredTokens} stored tokens, ${inFlightImportsKept} imports`
    console.log(summary)
    expect(total()).toBeGreaterThan(50)
    for (const kind of ['embed', 'token', 'import'] as const) expect(acked[kind].size, kind).toBeGreaterThan(0)
  })
})

interface StoreRows {
  readonly dashboards: { id: string; dashboard_id: string; name: string; document: string }[]
  readonly embeds: { embed_id: string; dashboard_row_id: string; access_settings: string }[]
  readonly guest_tokens: { claims: string }[]
}

/** The rows of the three tables, read straight from the store (the server is stopped). */
async function readStore(store: StoreKind, dataDir: string, databaseUrl: string | undefined): Promise<StoreRows> {
  const queries = {
    dashboards: 'select id, dashboard_id, name, document from dashboards',
    embeds: 'select embed_id, dashboard_row_id, access_settings from embeds',
    guest_tokens: 'select claims from guest_tokens',
  }
  if (store === 'sqlite') {
    const db = new SQLite(join(dataDir, 'strata.db'), { readonly: true })
    try {
      return {
        dashboards: db.prepare(queries.dashboards).all() as StoreRows['dashboards'],
        embeds: db.prepare(queries.embeds).all() as StoreRows['embeds'],
        guest_tokens: db.prepare(queries.guest_tokens).all() as StoreRows['guest_tokens'],
      }
    } finally {
      db.close()
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return {
      dashboards: (await client.query(queries.dashboards)).rows,
      embeds: (await client.query(queries.embeds)).rows,
      guest_tokens: (await client.query(queries.guest_tokens)).rows,
    }
  } finally {
    await client.end()
  }
}
