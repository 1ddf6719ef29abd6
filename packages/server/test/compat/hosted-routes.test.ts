import { describe, expect, it } from 'vitest'
import { embedDashboard, salesDocument, salesTables } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { bearer } from '../helpers/bootstrap.js'
import { expectError } from '../helpers/expect-error.js'
import { runtimeCalls } from '../helpers/runtime-calls.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

/**
 * Routes the hosted service's users call that the API reference of our contract leaves out,
 * replayed with bodies written for these tests after the service's public API reference: the
 * data app rename (preferred and older path), a workspace's dashboards, and the older legacy
 * paths (datamart create, embed delete, metrics and dashboards lists), over
 * helpers/analytics.ts.
 */
const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

const RENAME_PATHS = ['/api/v2/data-app', '/api/v2/dataApp'] as const

describe.skipIf(!hasPg).each(storeKinds)('hosted-service routes on %s', (store) => {
  const { wh, t, a } = useAnalytics(store)
  const { rt } = runtimeCalls(a)

  describe('data app rename', () => {
    it.each(RENAME_PATHS)('renames on %s; keys, embeds and minted guest tokens keep working', async (path) => {
      const before = await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId: 'acme',
      })
      // the service's example, with names our alphanumeric rule admits
      const res = await a.call('PUT', path, a.serviceToken, { name: 'salesapp', updateName: 'salesappeu' })
      expect([res.statusCode, res.json()], res.body).toEqual([200, { name: 'salesappeu' }])

      // the data apps list has the new name, and no app of the old one
      const apps = (await a.ok('GET', '/api/v2/data-app', a.serviceToken)).data as {
        name: string
        embedCount: number
      }[]
      expect(apps.map((x) => [x.name, x.embedCount])).toEqual([['salesappeu', 1]])
      // a token minted before the rename still loads the embed
      expect((await rt('GET', a.embedId, '', before.token)).statusCode).toBe(200)
      // the same key mints under the new name at once (its cached name was dropped), not the old
      const after = await a.call('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesappeu',
        clientId: 'acme',
      })
      expect(after.statusCode, after.body).toBe(200)
      expect((await rt('GET', a.embedId, '', after.json().token)).statusCode).toBe(200)
      expectError(
        await a.call('POST', '/api/v2/guest-token/create', a.dataAppKey, { dataAppName: 'salesapp', clientId: 'acme' }),
        400,
        'INVALID_REQUEST_BODY',
        /dataAppName/,
      )
      // what the key lists says the new name
      const embeds = (await a.ok('GET', '/api/v2/data-app/embeds', a.dataAppKey)).data as {
        embedMetadata: { dataAppName: string }
      }[]
      expect(embeds.map((e) => e.embedMetadata.dataAppName)).toEqual(['salesappeu'])
      // API tokens are found under the new name
      expect(
        (await a.ok('GET', '/api/v2/data-app/api-tokens?dataAppName=salesappeu', a.serviceToken)).data,
      ).toHaveLength(1)
    })

    it('refuses a taken name, an unknown data app and a name outside the alphanumeric rule', async () => {
      await a.ok('POST', '/api/v2/data-app', a.serviceToken, { name: 'otherapp' })
      for (const path of RENAME_PATHS) {
        expectError(
          await a.call('PUT', path, a.serviceToken, { name: 'salesapp', updateName: 'otherapp' }),
          400,
          'DATA_APP_ALREADY_EXISTS',
          /otherapp/,
        )
        expectError(
          await a.call('PUT', path, a.serviceToken, { name: 'Customer Analytics', updateName: 'x1' }),
          400,
          'DATA_APP_NOT_FOUND',
        )
        // the service's own example names have spaces: our data app names are letters and digits
        expectError(
          await a.call('PUT', path, a.serviceToken, { name: 'salesapp', updateName: 'Updated Customer Analytics' }),
          400,
          'INVALID_REQUEST_BODY',
          /updateName/,
        )
        expectError(await a.call('PUT', path, a.serviceToken, { name: 'salesapp' }), 400, 'INVALID_REQUEST_BODY')
        // the same name: nothing to do
        expect((await a.ok('PUT', path, a.serviceToken, { name: 'salesapp', updateName: 'salesapp' })).name).toBe(
          'salesapp',
        )
        // a bad service token: 400 AUTHENTICATION_ERROR, as the service documents this route
        expectError(
          await a.call('PUT', path, a.dataAppKey, { name: 'salesapp', updateName: 'x1' }),
          400,
          'AUTHENTICATION_ERROR',
        )
      }
      const names = ((await a.ok('GET', '/api/v2/data-app', a.serviceToken)).data as { name: string }[]).map(
        (x) => x.name,
      )
      expect(names.sort()).toEqual(['otherapp', 'salesapp'])
    })
  })

  describe("a workspace's dashboards", () => {
    const list = (body: object) => a.call('POST', '/api/v2/workspace/dashboards', a.serviceToken, body)

    it("answers the service's example shape: every dashboard of the workspace, embedded or not", async () => {
      await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
        workspaceName: 'main',
        dashboardId: 'marketing_dash_456',
        importDashboardData: { ...salesDocument(wh.schema), name: 'Marketing Analytics' },
      })
      const res = await list({ workspaceName: 'main' })
      expect([res.statusCode, res.json()], res.body).toEqual([
        200,
        {
          data: [
            { name: 'Sales overview', externalDashboardId: 'sales-overview' },
            { name: 'Marketing Analytics', externalDashboardId: 'marketing_dash_456' },
          ],
          error: null,
        },
      ])
      // another workspace's dashboards are not listed; an empty one answers []
      await a.ok('POST', '/api/v2/workspace', a.serviceToken, {
        name: 'my-workspace',
        connectionType: 'DATAMART',
        datamartName: 'sales',
      })
      expect((await list({ workspaceName: 'my-workspace' })).json()).toEqual({ data: [], error: null })
    })

    it('pages by 10 with typed values; an unknown workspace is WORKSPACE_ID_ERROR', async () => {
      for (let i = 0; i < 11; i++) {
        await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
          workspaceName: 'main',
          dashboardId: `d${String(i).padStart(2, '0')}`,
          importDashboardData: { name: `D${i}`, metrics: [] },
        })
      }
      const page = async (pageNumber: number) =>
        ((await list({ workspaceName: 'main', isPagination: true, pageNumber })).json().data as unknown[]).length
      expect([await page(1), await page(2), await page(3)]).toEqual([10, 2, 0])
      expect((await list({ workspaceName: 'main' })).json().data).toHaveLength(12)
      expectError(await list({ workspaceName: 'SalesWorkspace' }), 400, 'WORKSPACE_ID_ERROR', /SalesWorkspace/)
      expectError(await list({ workspaceName: 'main', isPagination: 'true' }), 400, 'INVALID_REQUEST_BODY')
      expectError(await list({}), 400, 'INVALID_REQUEST_BODY', /workspaceName/)
      expectError(
        await a.call('POST', '/api/v2/workspace/dashboards', a.dataAppKey, { workspaceName: 'main' }),
        401,
        'AUTHENTICATION_ERROR',
      )
    })
  })

  describe('older legacy paths', () => {
    it('POST /api/v2/dataApp/datamart/create creates as the preferred path does', async () => {
      // the service's legacy example: a table with its columns, an alias on one
      const res = await a.call('POST', '/api/v2/dataApp/datamart/create', a.serviceToken, {
        name: 'legacy-mart',
        datasourceName: 'warehouse',
        tableList: [
          { schemaName: wh.schema, name: 'orders', columns: [{ name: 'id', alias: 'order_id' }, { name: 'amount' }] },
        ],
      })
      expect([res.statusCode, res.json()], res.body).toEqual([200, { id: 'legacy-mart', error: null }])
      const marts = (await a.ok('GET', '/api/v2/data-app/datamarts', a.serviceToken)).data as { name: string }[]
      expect(marts.map((m) => m.name).sort()).toEqual(['legacy-mart', 'sales'])
      expectError(
        await a.call('POST', '/api/v2/dataApp/datamart/create', a.serviceToken, {
          name: 'again',
          datasourceName: 'nope',
          tableList: salesTables(wh.schema),
        }),
        400,
        'DATASOURCE_NAME_ERROR',
      )
    })

    it('POST /api/v2/dataApp/embed/delete deletes by body or by query string, and stops its tokens', async () => {
      const second = await embedDashboard(a, 'sales-overview', { name: 'Second' })
      const token = (
        await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, { dataAppName: 'salesapp', clientId: 'acme' })
      ).token
      const byBody = await a.call('POST', '/api/v2/dataApp/embed/delete', a.dataAppKey, { embedId: second })
      expect([byBody.statusCode, byBody.json()], byBody.body).toEqual([200, { id: second, error: null }])
      expect((await rt('GET', second, '', token)).statusCode).toBe(401)
      // as the service's example sends it: no body, the id in the query string
      const byQuery = await t.app.inject({
        method: 'POST',
        url: `/api/v2/dataApp/embed/delete?embedId=${a.embedId}`,
        headers: bearer(a.dataAppKey),
      })
      expect([byQuery.statusCode, byQuery.json()], byQuery.body).toEqual([200, { id: a.embedId, error: null }])
      expect((await a.ok('GET', '/api/v2/data-app/embeds', a.dataAppKey)).data).toEqual([])
      expectError(
        await a.call('POST', '/api/v2/dataApp/embed/delete', a.dataAppKey, {}),
        400,
        'INVALID_REQUEST_BODY',
        /embedId/,
      )
      expectError(
        await a.call('POST', '/api/v2/dataApp/embed/delete', a.dataAppKey, { embedId: a.embedId }),
        400,
        'INVALID_REQUEST_BODY',
      )
    })

    it('POST /api/v2/dataApp/metrics and /api/v2/dataApp/dashboards answer as the preferred lists', async () => {
      const viaGet = await a.ok('GET', `/api/v2/data-app/metrics?embedId=${a.embedId}&clientId=acme`, a.dataAppKey)
      const viaPost = await a.ok('POST', '/api/v2/dataApp/metrics', a.dataAppKey, {
        embedId: a.embedId,
        clientId: 'acme',
      })
      expect(viaPost).toEqual(viaGet)
      expect((viaPost.data as unknown[]).length).toBe(3)
      const paged = await a.ok('POST', '/api/v2/dataApp/metrics', a.dataAppKey, {
        embedId: a.embedId,
        clientId: 'acme',
        isPagination: true,
        pageNumber: 1,
      })
      expect(paged).toEqual(viaGet)
      expectError(
        await a.call('POST', '/api/v2/dataApp/metrics', a.dataAppKey, { embedId: 'emb_nope', clientId: 'acme' }),
        400,
        'EMBED_PARAM_ERROR',
      )
      expectError(
        await a.call('POST', '/api/v2/dataApp/metrics', a.dataAppKey, {
          embedId: a.embedId,
          clientId: 'acme',
          isPagination: 'true',
        }),
        400,
        'INVALID_REQUEST_BODY',
      )
      expectError(
        await a.call('POST', '/api/v2/dataApp/metrics', a.serviceToken, { embedId: a.embedId, clientId: 'acme' }),
        400,
        'INVALID_DATA_APP_API_KEY',
      )

      const dashboards = await a.ok('GET', '/api/v2/data-app/dashboards?isPagination=false&pageNumber=1', a.dataAppKey)
      expect(
        await a.ok('POST', '/api/v2/dataApp/dashboards', a.dataAppKey, { isPagination: true, pageNumber: 2 }),
      ).toEqual({
        data: [],
      })
      expect(await a.ok('POST', '/api/v2/dataApp/dashboards', a.dataAppKey, {})).toEqual(dashboards)
      expect(dashboards.data).toEqual([
        { name: 'Sales overview', externalDashboardId: 'sales-overview', embedId: a.embedId },
      ])
    })
  })
})
