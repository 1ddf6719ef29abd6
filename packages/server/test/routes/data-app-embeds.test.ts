import { describe, expect, it } from 'vitest'
import { ACCESS } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

/** The embeds and whitelist of a data app named in the path, with the organization's tokens (what the studio uses). */
describe.skipIf(!hasPg).each(storeKinds)(
  'a data app’s embeds and whitelist with the organization token on %s',
  (store) => {
    const { t, a } = useAnalytics(store)
    const base = '/api/v2/data-apps/salesapp'

    it('creates, lists, updates and deletes an embed with the admin access token, as the key routes see it', async () => {
      const created = await a.call('POST', `${base}/embeds`, a.accessToken, {
        dashboardId: 'sales-overview',
        embedType: 'dashboard',
        workspaceName: 'main',
        name: 'Studio',
        accessSettings: { ...ACCESS, isAllowUnderlyingData: false },
      })
      expect(created.statusCode, created.body).toBe(200)
      const id = created.json().id as string
      expect(id).toMatch(/^emb_/)

      const listed = (await a.ok('GET', `${base}/embeds`, a.serviceToken)).data as { embedId: string; name: string }[]
      expect(listed.map((e) => e.name)).toEqual(['Sales', 'Studio'])
      // the same embed through the data app key
      const byKey = (await a.ok('GET', '/api/v2/data-app/embeds', a.dataAppKey)).data as { embedId: string }[]
      expect(byKey.map((e) => e.embedId)).toContain(id)

      const updated = await a.call('PUT', `${base}/embeds`, a.accessToken, {
        embedId: id,
        accessSettings: { isAllowUnderlyingData: true, isAllowEmailReports: true },
      })
      expect(updated.json()).toEqual({ id, error: null })
      const exported = await a.ok('GET', `/api/v2/data-app/embeds/export?embedId=${id}`, a.dataAppKey)
      expect(exported._meta.embedDataAppAccessSetting).toMatchObject({
        isAllowUnderlyingData: true,
        isAllowEmailReports: true,
        isAllowMetricCreation: false,
      })

      const bad = await a.call('PUT', `${base}/embeds`, a.accessToken, {
        embedId: id,
        accessSettings: { isAllowNothing: true },
      })
      expect([bad.statusCode, bad.json().error.code]).toEqual([400, 'INVALID_ACCESS_SETTINGS'])

      const deleted = await a.call('DELETE', `${base}/embeds?embedId=${id}`, a.accessToken)
      expect(deleted.json()).toEqual({ id })
      const after = (await a.ok('GET', `${base}/embeds`, a.accessToken)).data as { embedId: string }[]
      expect(after.map((e) => e.embedId)).not.toContain(id)
    })

    it('keeps to the organization’s own data apps and embeds', async () => {
      const missing = await a.call('GET', '/api/v2/data-apps/nosuchapp/embeds', a.accessToken)
      expect([missing.statusCode, missing.json().error.code]).toEqual([400, 'DATA_APP_NOT_FOUND'])
      await a.ok('POST', '/api/v2/data-app', a.serviceToken, { name: 'other' })
      const foreign = await a.call('PUT', '/api/v2/data-apps/other/embeds', a.accessToken, {
        embedId: a.embedId,
        accessSettings: { isAllowUnderlyingData: false },
      })
      expect([foreign.statusCode, foreign.json().error.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS'])
      const foreignRead = await a.call(
        'GET',
        `/api/v2/data-apps/other/embeds/access-settings?embedId=${a.embedId}`,
        a.accessToken,
      )
      expect([foreignRead.statusCode, foreignRead.json().error.code]).toEqual([404, 'EMBED_NOT_FOUND'])
      const noToken = await t.app.inject({ method: 'GET', url: `${base}/embeds` })
      expect([noToken.statusCode, noToken.json().error.code]).toEqual([401, 'AUTHENTICATION_ERROR'])
      // the data app key is not an organization token
      const withKey = await a.call('GET', `${base}/embeds`, a.dataAppKey)
      expect([withKey.statusCode, withKey.json().error.code]).toEqual([401, 'AUTHENTICATION_ERROR'])
    })

    it('reads and replaces the whitelist, refusing a URL with a scheme or a path', async () => {
      expect(await a.ok('GET', `${base}/whitelist-domains`, a.accessToken)).toEqual({ data: [] })
      const put = await a.ok('PUT', `${base}/whitelist-domains`, a.accessToken, {
        domains: ['App.Example.com', 'localhost:3000'],
      })
      expect(put).toEqual({ data: ['app.example.com', 'localhost:3000'] })
      // the key route sees the same list
      expect(await a.ok('GET', '/api/v2/data-app/whitelist-domains', a.dataAppKey)).toEqual(put)
      for (const domain of ['https://app.example.com', 'app.example.com/path']) {
        const bad = await a.call('PUT', `${base}/whitelist-domains`, a.accessToken, { domains: [domain] })
        expect([bad.statusCode, bad.json().error.code]).toEqual([400, 'INVALID_REQUEST_BODY'])
      }
      expect(await a.ok('PUT', `${base}/whitelist-domains`, a.serviceToken, { domains: [] })).toEqual({ data: [] })
    })
  },
)
