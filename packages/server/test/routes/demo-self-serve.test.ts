import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { READ_ONLY_ACCESS } from '../../src/schemas/embeds.js'
import { PRIMARY_ORGANIZATION_ID } from '../../src/services/admin/admin-accounts.js'
import { DEMO, seedDemo } from '../../src/services/demo/seed.js'
import { createTestApp, type TestContext } from '../helpers/app.js'

/** The demo shows self-serve (issue 15): the company allows it; acme's token may, globex's may not. */
describe('demo: who may build and arrange', () => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestApp('sqlite', { DEMO: 'true' })
    await seedDemo(t.app.services, t.app.log)
  })
  afterAll(() => t.close())

  const permissions = async (tenant: string) => {
    const minted = await t.app.inject({ method: 'GET', url: `/demo/token?tenant=${tenant}` })
    expect(minted.statusCode).toBe(200)
    const { token } = minted.json() as { token: string }
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v2/embed/runtime/${DEMO.dashboardId}`,
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.statusCode).toBe(200)
    return (res.json() as { permissions: Record<string, unknown> }).permissions
  }
  const SELF_SERVE = [
    'metricCreation',
    'metricUpdate',
    'metricDeletion',
    'manageMetrics',
    'archiveMetrics',
    'customizeLayout',
    'dashboardViews',
  ] as const

  it('acme may build, change, arrange and save views', async () => {
    const p = await permissions('acme')
    for (const key of SELF_SERVE) expect(p[key], key).toBe(true)
    expect(p.metricCreationMode).toBe('DRAG_DROP')
    expect([p.emailReports, p.aiPilot]).toEqual([false, false])
  })

  it('globex may only look: every self-serve capability off', async () => {
    const p = await permissions('globex')
    for (const key of SELF_SERVE) expect(p[key], key).toBe(false)
    expect(p.download).toBe(true)
  })

  it('a demo seeded before self-serve (a read-only embed) allows it after the next start', async () => {
    const { embeds, dataApps } = t.app.services
    const app = await dataApps.byName(PRIMARY_ORGANIZATION_ID, DEMO.dataApp)
    const embed = app && (await embeds.resolve(app.id, DEMO.dashboardId))
    if (!app || !embed) throw new Error('no demo embed')
    const principal = {
      kind: 'dataApp' as const,
      organizationId: PRIMARY_ORGANIZATION_ID,
      dataAppId: app.id,
      dataAppName: app.name,
      keyId: null,
    }
    await embeds.update(principal, embed.embedId, READ_ONLY_ACCESS)
    expect((await permissions('acme')).metricCreation).toBe(false)
    await seedDemo(t.app.services, t.app.log)
    expect((await permissions('acme')).metricCreation).toBe(true)
  })
})
