import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, storeKinds, type TestContext } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

/** docs/api.md#dashboards-as-code and issue 13: what was created can be listed and cleaned up. */
describe.skipIf(!hasPg).each(storeKinds)('cleaning up datasources and workspaces on %s', (store) => {
  const { wh, a } = useAnalytics(store)

  it('lists workspaces with their datasource and datamart', async () => {
    await a.ok('POST', '/api/v2/workspace', a.serviceToken, {
      name: 'direct',
      connectionType: 'DATASOURCE',
      datasourceName: 'warehouse',
    })
    await a.ok('POST', '/api/v2/workspace', a.serviceToken, { name: 'multi', connectionType: 'MULTI_DATASOURCE' })
    const res = await a.call('GET', '/api/v2/workspace', a.serviceToken)
    expect(res.statusCode, res.body).toBe(200)
    const at = expect.any(String)
    expect(res.json()).toEqual({
      data: [
        { name: 'main', connectionType: 'DATAMART', datasourceName: 'warehouse', datamartName: 'sales', createdAt: at },
        {
          name: 'direct',
          connectionType: 'DATASOURCE',
          datasourceName: 'warehouse',
          datamartName: null,
          createdAt: at,
        },
        { name: 'multi', connectionType: 'MULTI_DATASOURCE', datasourceName: null, datamartName: null, createdAt: at },
      ],
    })
    expectError(await a.call('GET', '/api/v2/workspace', a.dataAppKey), 401, 'AUTHENTICATION_ERROR')
  })

  it('deletes a workspace with no dashboard; refused, naming them, while dashboards live in it', async () => {
    const refused = await a.call('DELETE', '/api/v2/workspace?name=main', a.serviceToken)
    expectError(refused, 400, 'INVALID_REQUEST_BODY', /workspace main holds dashboard sales-overview; delete it first/)
    await a.ok('POST', '/api/v2/workspace', a.serviceToken, { name: 'spare', connectionType: 'MULTI_DATASOURCE' })
    const res = await a.call('DELETE', '/api/v2/workspace?name=spare', a.serviceToken)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ id: 'spare', error: null })
    const names = (
      (await a.call('GET', '/api/v2/workspace', a.serviceToken)).json() as unknown as { data: { name: string }[] }
    ).data.map((w) => w.name)
    expect(names).toEqual(['main'])
    expectError(await a.call('DELETE', '/api/v2/workspace?name=spare', a.serviceToken), 400, 'WORKSPACE_DOES_NOT_EXIST')
    expectError(await a.call('DELETE', '/api/v2/workspace', a.serviceToken), 400, 'INVALID_REQUEST_BODY', /name/)
  })

  it('deletes a datasource nothing uses; refused, naming them, while a datamart or workspace uses it', async () => {
    expectError(
      await a.call('DELETE', '/api/v2/datasource?name=warehouse', a.serviceToken),
      400,
      'INVALID_REQUEST_BODY',
      /datasource warehouse is used by datamart sales; delete it first/,
    )
    await a.ok('POST', '/api/v2/datasource', a.serviceToken, {
      datasourceType: 'postgres',
      credentials: { name: 'second', ...wh.credentials },
    })
    await a.ok('POST', '/api/v2/workspace', a.serviceToken, {
      name: 'direct',
      connectionType: 'DATASOURCE',
      datasourceName: 'second',
    })
    expectError(
      await a.call('DELETE', '/api/v2/datasource?name=second', a.serviceToken),
      400,
      'INVALID_REQUEST_BODY',
      /used by workspace direct/,
    )
    await a.ok('DELETE', '/api/v2/workspace?name=direct', a.serviceToken)
    const res = await a.call('DELETE', '/api/v2/datasource?name=second', a.serviceToken)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ id: expect.any(String), error: null })
    const list = (await a.call('GET', '/api/v2/datasource', a.serviceToken)).json() as unknown as {
      data: { name: string }[]
    }
    expect(list.data.map((d) => d.name)).toEqual(['warehouse'])
    expectError(
      await a.call('DELETE', '/api/v2/datasource?name=second', a.serviceToken),
      400,
      'INVALID_DATASOURCE_NAME',
      /no datasource named second/,
    )
    // the name is free again
    await a.ok('POST', '/api/v2/datasource', a.serviceToken, {
      datasourceType: 'postgres',
      credentials: { name: 'second', ...wh.credentials },
    })
  })

  it('creating or updating a datasource whose introspection finds no table answers 200 with a warning', async () => {
    const body = {
      datasourceType: 'postgres',
      credentials: { name: 'empty', ...wh.credentials, schema: 'no_such_schema' },
    }
    const res = await a.call('POST', '/api/v2/datasource', a.serviceToken, body)
    expect(res.statusCode, res.body).toBe(200)
    const data = (res.json() as unknown as { data: { tables: number; warnings?: string[] } }).data
    expect(data.tables).toBe(0)
    expect(data.warnings).toEqual([expect.stringMatching(/^The introspection found no table in datasource empty/)])
    const updated = await a.call('PUT', '/api/v2/datasource', a.serviceToken, body)
    expect((updated.json() as unknown as { data: { warnings?: string[] } }).data.warnings).toHaveLength(1)
    const fixed = await a.call('PUT', '/api/v2/datasource', a.serviceToken, {
      ...body,
      credentials: { ...body.credentials, schema: wh.schema },
    })
    expect(fixed.json()).toMatchObject({ data: { tables: 2 } })
    expect((fixed.json() as unknown as { data: object }).data).not.toHaveProperty('warnings')
  })
})

describe.each([
  ['on', 'true', '/demo'],
  ['off', 'false', '/docs'],
])('GET / with the demo %s', (_, demo, target) => {
  let t: TestContext | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  it(`redirects to ${target}, under BASE_PATH too`, async () => {
    t = await createTestApp('sqlite', { DEMO: demo })
    const root = await t.app.inject({ method: 'GET', url: '/' })
    expect([root.statusCode, root.headers.location]).toEqual([302, target])
    await t.close()
    t = await createTestApp('sqlite', { DEMO: demo, BASE_PATH: '/analytics' })
    for (const url of ['/analytics', '/analytics/']) {
      const res = await t.app.inject({ method: 'GET', url })
      expect([res.statusCode, res.headers.location], url).toEqual([302, `/analytics${target}`])
    }
    expect((await t.app.inject({ method: 'GET', url: '/' })).statusCode).toBe(404)
  })
})
