/**
 * Rollup files and state follow their dashboards: deleting a dashboard (the dashboard route, or
 * an embed deleted with its dashboard) removes its rollups' state rows and files; taking a rollup
 * out of the document removes its own; and the state rows are kept in step without reading every
 * document on every pass: a dashboard imported or deleted through another instance (two apps on
 * one PostgreSQL store, with no Redis between them, so no change event crosses) is picked up by
 * the next pass through the `updated_at` watermark and the comparison of state rows.
 */

import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { RollupScheduler } from '../../src/services/rollups/scheduler.js'
import { type Analytics, embedDashboard, salesDocument, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { filesOf, rollupDir } from '../helpers/rollups.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

let one: TestContext
let two: TestContext
let wh: PgWarehouse
let a: Analytics

const rollup = (schema: string, name: string) => ({
  name,
  from: `${schema}.orders`,
  dimensions: ['status'],
  measures: [{ name: 'orders', aggregate: 'count' }],
})

const importDoc = (dashboardId: string, rollups: object[]) =>
  a.call('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
    workspaceName: 'main',
    dashboardId,
    importDashboardData: { ...salesDocument(wh.schema), rollups },
  })

const list = async (ctx: TestContext) =>
  (
    (
      await ctx.app.inject({
        method: 'GET',
        url: '/api/v2/data-app/rollups',
        headers: { authorization: `Bearer ${a.serviceToken}` },
      })
    ).json() as { data: { dashboardId: string; name: string; state: string }[] }
  ).data

const stateRows = async (dashboardRowId: string) =>
  one.app.services.store.db
    .selectFrom('rollups')
    .select('name')
    .where('dashboard_row_id', '=', dashboardRowId)
    .execute()

/** Builds every due rollup with `ctx`'s services (one pass); the names built. */
const build = (ctx: TestContext) =>
  new RollupScheduler(ctx.app.services.store, ctx.app.services.rollups, { pollMs: 1000, leaseMs: 60_000 }).tick(
    new Date(Date.now() + 1000),
  )

beforeAll(async () => {
  wh = await createPgWarehouse()
  const key = randomBytes(32).toString('hex')
  one = await createTestApp('postgres', { ROLLUP_POLL_INTERVAL_MS: '0', ENCRYPTION_KEY: key })
  // a second instance on the same store: its own DATA_DIR, no Redis (no change event reaches it)
  two = await createTestApp('sqlite', {
    ROLLUP_POLL_INTERVAL_MS: '0',
    ENCRYPTION_KEY: key,
    DATABASE_URL: one.config.databaseUrl as string,
  })
  a = await setupAnalytics(one.app, wh)
}, 120_000)

afterAll(async () => {
  await two?.close()
  await one?.close()
  await wh?.drop()
})

describe('files and state follow the dashboard', () => {
  it('deleting a dashboard removes its rollups: state rows and files', async () => {
    expect((await importDoc('doomed', [rollup(wh.schema, 'r1'), rollup(wh.schema, 'r2')])).statusCode).toBe(200)
    expect((await build(one)).sort()).toEqual(['r1', 'r2'])
    const dir = await rollupDir(one.app, one.config.dataDir, 'doomed', 'r1')
    const rowId = dir.split('/').at(-2) as string
    expect(filesOf(dir).length).toBe(1)
    const res = await a.call(
      'DELETE',
      '/api/v2/data-app/dashboard?workspaceName=main&dashboardId=doomed',
      a.serviceToken,
    )
    expect(res.statusCode, res.body).toBe(200)
    expect(await stateRows(rowId)).toEqual([])
    await list(one)
    expect(existsSync(dir)).toBe(false)
    expect(existsSync(dir.slice(0, dir.lastIndexOf('/')))).toBe(false)
  }, 120_000)

  it('deleting an embed with its dashboard removes the rollups of that dashboard', async () => {
    expect((await importDoc('embedded', [rollup(wh.schema, 'r1')])).statusCode).toBe(200)
    const embedId = await embedDashboard(a, 'embedded')
    expect(await build(one)).toEqual(['r1'])
    const dir = await rollupDir(one.app, one.config.dataDir, 'embedded', 'r1')
    expect(filesOf(dir).length).toBe(1)
    const res = await a.call(
      'DELETE',
      `/api/v2/data-app/embeds?embedId=${embedId}&isDeleteDashboard=true`,
      a.dataAppKey,
    )
    expect(res.statusCode, res.body).toBe(200)
    await list(one)
    expect(existsSync(dir)).toBe(false)
  }, 120_000)

  it('taking a rollup out of the document removes its state and files, and keeps the others', async () => {
    expect((await importDoc('changing', [rollup(wh.schema, 'keep'), rollup(wh.schema, 'drop')])).statusCode).toBe(200)
    expect((await build(one)).sort()).toEqual(['drop', 'keep'])
    const kept = await rollupDir(one.app, one.config.dataDir, 'changing', 'keep')
    const dropped = await rollupDir(one.app, one.config.dataDir, 'changing', 'drop')
    const res = await a.call('PUT', '/api/v2/data-app/dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'changing',
      importDashboardData: { ...salesDocument(wh.schema), rollups: [rollup(wh.schema, 'keep')] },
    })
    expect(res.statusCode, res.body).toBe(200)
    const names = (await list(one)).filter((r) => r.dashboardId === 'changing').map((r) => r.name)
    expect(names).toEqual(['keep'])
    expect(existsSync(dropped)).toBe(false)
    expect(filesOf(kept).length).toBe(1)
  }, 120_000)

  it('a workspace or datasource still holding the dashboard is not deleted, and its rollup files stay', async () => {
    const dir = await rollupDir(one.app, one.config.dataDir, 'changing', 'keep')
    const ws = await a.call('DELETE', '/api/v2/workspace?name=main', a.serviceToken)
    expect(ws.statusCode, ws.body).toBe(400)
    const ds = await a.call('DELETE', '/api/v2/datasource?name=warehouse', a.serviceToken)
    expect(ds.statusCode, ds.body).toBe(400)
    await list(one)
    expect(filesOf(dir).length).toBe(1)
  }, 120_000)
})

describe('state sync across instances, without a full scan per pass', () => {
  it("another instance's import is picked up by the next pass (watermark), and only the changed dashboard is read", async () => {
    await list(two) // the first look: a full pass
    const before = (await list(two)).map((r) => `${r.dashboardId}/${r.name}`)
    expect(before).not.toContain('elsewhere/r1')
    const read = vi.spyOn(two.app.services.workspaces, 'get')
    try {
      // imported through instance one: no event reaches instance two
      expect((await importDoc('elsewhere', [rollup(wh.schema, 'r1')])).statusCode).toBe(200)
      const after = (await list(two)).map((r) => `${r.dashboardId}/${r.name}`)
      expect(after).toContain('elsewhere/r1')
      // only the one changed dashboard was planned (each plan reads its workspace once)
      expect(read).toHaveBeenCalledTimes(1)
      read.mockClear()
      await list(two)
      expect(read).not.toHaveBeenCalled()
    } finally {
      read.mockRestore()
    }
  }, 120_000)

  it('a dashboard deleted through another instance loses the files this instance built', async () => {
    expect((await importDoc('built-on-two', [rollup(wh.schema, 'r1')])).statusCode).toBe(200)
    await list(two)
    expect(await build(two)).toContain('r1')
    const dir = await rollupDir(two.app, two.config.dataDir, 'built-on-two', 'r1')
    expect(filesOf(dir).length).toBe(1)
    const res = await a.call(
      'DELETE',
      '/api/v2/data-app/dashboard?workspaceName=main&dashboardId=built-on-two',
      a.serviceToken,
    )
    expect(res.statusCode, res.body).toBe(200)
    await list(two)
    expect(existsSync(dir)).toBe(false)
  }, 120_000)

  it('files left with no state row (an instance down when its dashboard went) are swept', async () => {
    expect((await importDoc('swept', [rollup(wh.schema, 'r1')])).statusCode).toBe(200)
    await list(two)
    expect(await build(two)).toContain('r1')
    const dir = await rollupDir(two.app, two.config.dataDir, 'swept', 'r1')
    // the row goes behind every instance's back (as if deleted while this one was down)
    await one.app.services.store.db.deleteFrom('dashboards').where('dashboard_id', '=', 'swept').execute()
    // a fresh instance on the same DATA_DIR starts with a full pass, which sweeps
    const three = await createTestApp('sqlite', {
      ROLLUP_POLL_INTERVAL_MS: '0',
      DATA_DIR: two.config.dataDir,
      DATABASE_URL: one.config.databaseUrl as string,
    })
    try {
      expect(existsSync(dir)).toBe(true)
      await three.app.services.rollups.catchUp()
      expect(existsSync(dir)).toBe(false)
    } finally {
      await three.close()
    }
  }, 120_000)
})
