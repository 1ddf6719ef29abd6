import { beforeEach, describe, expect, it } from 'vitest'
import { closedPort } from '../fixtures/net.js'
import { storeKinds } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { useWarehouseApp } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

describe.skipIf(!hasPg).each(storeKinds)('datasources, datamarts and workspaces on %s', (store) => {
  const { wh, t } = useWarehouseApp(store)
  let creds: Awaited<ReturnType<typeof bootstrap>>
  beforeEach(async () => {
    creds = await bootstrap(t.app)
  })

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = creds.serviceToken) =>
    t.app.inject({ method, url, payload, headers: bearer(token) })
  const pgSource = (name = 'warehouse', extra: object = {}) => ({
    datasourceType: 'postgres',
    credentials: { name, ...wh.credentials, ...extra },
  })

  it('creates a postgres datasource: tests the connection, caches the schema, never echoes credentials', async () => {
    const res = await call('POST', '/api/v2/datasource', pgSource())
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      name: 'warehouse',
      data: {
        id: expect.any(String),
        name: 'warehouse',
        datasourceType: 'postgres',
        tenancySettings: null,
        tables: 2,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
      error: null,
    })
    expect(res.body).not.toContain(wh.credentials.password)
    const list = await call('GET', '/api/v2/datasource')
    expect(list.json()).toEqual({
      data: [{ name: 'warehouse', datasourceType: 'postgres', createdAt: expect.any(String) }],
    })

    // credentials are sealed at rest: the password is not in the row
    const row = await t.app.services.store.db.selectFrom('datasources').selectAll().executeTakeFirstOrThrow()
    expect(row.credentials).toMatch(/^v1:/)
    expect(row.credentials).not.toContain(wh.credentials.password)
    expect(row.credentials).not.toContain(wh.schema)
    expect(t.rawLogs.join('\n')).not.toContain(wh.credentials.password)

    const dup = await call('POST', '/api/v2/datasource', pgSource())
    expectError(dup, 400, 'INVALID_REQUEST_BODY', /credentials\.name/)
    // names are case-sensitive
    expect((await call('POST', '/api/v2/datasource', pgSource('Warehouse'))).statusCode).toBe(200)
  })

  it('refuses an unreachable host, a missing database or bad credentials within 10 s and saves nothing', async () => {
    const started = Date.now()
    const closedPort = await call('POST', '/api/v2/datasource', pgSource('a', { port: 1 }))
    expectError(closedPort, 400, 'DATASOURCE_CONNECTION_ERROR')
    const missingDb = await call('POST', '/api/v2/datasource', pgSource('b', { database: 'no_such_db_xyz' }))
    expectError(missingDb, 400, 'DATASOURCE_CONNECTION_ERROR', /no_such_db_xyz/)
    expect(Date.now() - started).toBeLessThan(20_000)
    expect((await call('GET', '/api/v2/datasource')).json()).toEqual({ data: [] })
  })

  it('validates credentials per type, naming the field; unsupported types say so', async () => {
    const noPort = await call('POST', '/api/v2/datasource', {
      datasourceType: 'postgres',
      credentials: { ...pgSource().credentials, port: 70000 },
    })
    expectError(noPort, 400, 'INVALID_REQUEST_BODY', /port/)
    const unknownType = await call('POST', '/api/v2/datasource', {
      datasourceType: 'oracle',
      credentials: { name: 'x' },
    })
    expectError(unknownType, 400, 'INVALID_REQUEST_BODY')
    const snowflake = await call('POST', '/api/v2/datasource', {
      datasourceType: 'snowflake',
      credentials: {
        name: 'snow',
        host: `http://127.0.0.1:${await closedPort()}`,
        username: 'u',
        password: 'p',
        role: 'r',
        warehouse: 'w',
        database: 'd',
        schema: 's',
        service: 'username/password',
      },
    })
    // snowflake has a connector now: an unreachable account is the driver's reason, not "unsupported"
    expectError(snowflake, 400, 'DATASOURCE_CONNECTION_ERROR', /connection refused/)
  })

  it('updates with the complete credentials of the same type; tenancy settings merge', async () => {
    await call('POST', '/api/v2/datasource', {
      ...pgSource(),
      tenancySettings: { tenancyLevel: 'DATABASE' },
    })
    const wrongType = await call('PUT', '/api/v2/datasource', {
      datasourceType: 'mysql',
      credentials: { name: 'warehouse', host: 'h', port: 3306, user: 'u', password: 'p' },
    })
    expectError(wrongType, 400, 'INVALID_REQUEST_BODY', /datasourceType/)
    const partial = await call('PUT', '/api/v2/datasource', {
      datasourceType: 'postgres',
      credentials: { name: 'warehouse', host: 'x' },
    })
    expectError(partial, 400, 'INVALID_REQUEST_BODY', /credentials\./)
    const missing = await call('PUT', '/api/v2/datasource', pgSource('nope'))
    expectError(missing, 400, 'INVALID_REQUEST_BODY', /nope/)

    const kept = await call('PUT', '/api/v2/datasource', pgSource())
    expect(kept.json().data.tenancySettings).toEqual({ tenancyLevel: 'DATABASE' })
    const tableNeedsFields = await call('PUT', '/api/v2/datasource', {
      ...pgSource(),
      tenancySettings: { tenancyLevel: 'TABLE' },
    })
    expectError(tableNeedsFields, 400, 'INVALID_REQUEST_BODY', /tenancySettings\./)
    const table = await call('PUT', '/api/v2/datasource', {
      ...pgSource(),
      tenancySettings: {
        tenancyLevel: 'TABLE',
        clientColumnType: 'STRING',
        schemaName: wh.schema,
        tableName: 'customers',
        tableClientNameColumn: 'tenant',
        tablePrimaryKeyColumn: 'id',
      },
    })
    expect(table.statusCode, table.body).toBe(200)
    expect(table.json().data.tenancySettings.tenancyLevel).toBe('TABLE')
    const badTable = await call('PUT', '/api/v2/datasource', {
      ...pgSource(),
      tenancySettings: {
        tenancyLevel: 'TABLE',
        clientColumnType: 'STRING',
        schemaName: wh.schema,
        tableName: 'nope',
        tableClientNameColumn: 'tenant',
        tablePrimaryKeyColumn: 'id',
      },
    })
    expectError(badTable, 400, 'INVALID_REQUEST_BODY', /tenancySettings\.tableName/)
  })

  it('syncs the cached schema by id; an unknown id is DATASOURCE_ID_ERROR', async () => {
    const { id } = (await call('POST', '/api/v2/datasource', pgSource())).json().data
    await wh.query(`create table ${wh.schema}.extra (x int)`)
    const synced = await call('POST', '/api/v2/datasource/sync', { input: { datasourceId: id } })
    expect(synced.json()).toEqual({ data: { message: expect.stringContaining('3 tables') } })
    await wh.query(`drop table ${wh.schema}.extra`)
    expectError(
      await call('POST', '/api/v2/datasource/sync', { input: { datasourceId: 'nope' } }),
      400,
      'DATASOURCE_ID_ERROR',
    )
    expectError(await call('POST', '/api/v2/datasource/sync', { input: {} }), 400, 'INVALID_REQUEST_BODY')
  })

  it('refuses datasource routes without a valid service token', async () => {
    for (const [method, url] of [
      ['POST', '/api/v2/datasource'],
      ['PUT', '/api/v2/datasource'],
      ['POST', '/api/v2/datasource/sync'],
      ['GET', '/api/v2/datasource'],
      ['GET', '/api/v2/data-app/datamarts'],
      ['POST', '/api/v2/dataApp/datamart/list'],
      ['PUT', '/api/v2/workspace'],
    ] as const) {
      expectError(await call(method, url, {}, creds.dataAppKey), 401, 'AUTHENTICATION_ERROR')
    }
  })

  describe('datamarts', () => {
    const tableList = () => [
      {
        schemaName: wh.schema,
        name: 'orders',
        label: 'Orders',
        clientColumn: 'tenant',
        columns: [
          { name: 'amount', label: 'Amount', defaultSort: 'DESC' },
          { name: 'amount_x2', isCustomColumn: true, sql: 'amount * 2' },
        ],
      },
      {
        schemaName: wh.schema,
        name: 'customers',
        clientColumn: 'tenant',
        columns: [{ name: 'country', isTimezoneConversion: false, alias: 'nation' }],
      },
    ]
    const relationships = () => [
      {
        parentTable: `${wh.schema}.customers`,
        parentColumn: 'id',
        childTable: `${wh.schema}.orders`,
        childColumn: 'customer_id',
        cardinality: 'OneToMany',
        joinType: 'LEFT JOIN',
      },
    ]

    it('creates, lists (expanded or not, paged), updates and deletes a datamart; legacy paths too', async () => {
      await call('POST', '/api/v2/datasource', pgSource())
      const created = await call('POST', '/api/v2/data-app/datamarts', {
        name: 'sales',
        datasourceName: 'warehouse',
        tableList: tableList(),
        relationships: relationships(),
      })
      expect(created.json()).toEqual({ id: 'sales', error: null })

      const expanded = (await call('GET', '/api/v2/data-app/datamarts')).json()
      expect(expanded.error).toBeNull()
      const item = expanded.data[0]
      expect(Object.keys(item).sort()).toEqual([
        'companyIntegration',
        'createdAt',
        'datamartOrganization',
        'datamartRelationships',
        'datamartTables',
        'name',
        'updatedAt',
      ])
      expect(item.companyIntegration).toEqual({ name: 'warehouse', datasourceType: 'postgres' })
      expect(item.datamartOrganization.tenancyLevel).toBeNull()
      const orders = item.datamartTables[0]
      expect(orders).toMatchObject({
        schemaName: wh.schema,
        tableName: 'orders',
        label: 'Orders',
        clientColumn: 'tenant',
        isHide: false,
      })
      expect(orders.datamartTableColumns.find((c: { columnName: string }) => c.columnName === 'amount')).toEqual({
        columnName: 'amount',
        datatype: 'number',
        alias: '',
        label: 'Amount',
        isHide: false,
        isCustomColumn: false,
        sql: '',
        isApplyTimezone: false,
        defaultSort: 'DESC',
      })
      expect(
        orders.datamartTableColumns.find((c: { columnName: string }) => c.columnName === 'amount_x2'),
      ).toMatchObject({
        isCustomColumn: true,
        sql: 'amount * 2',
      })
      expect(item.datamartRelationships).toEqual([
        {
          parentTableName: `${wh.schema}.customers`,
          parentColumnName: 'id',
          childTableName: `${wh.schema}.orders`,
          childColumnName: 'customer_id',
          relationshipName: expect.any(String),
          cardinality: 'OneToMany',
          join: 'LEFT JOIN',
        },
      ])

      for (const [url, payload, expand] of [
        ['/api/v2/data-app/datamarts?expandDetails=false', undefined, false],
        ['/api/v2/data-app/datamarts?expandDetails=yes', undefined, false],
        ['/api/v2/data-app/datamarts?expandDetails=true', undefined, true],
      ] as const) {
        const res = (await call('GET', url, payload)).json()
        expect('datamartTables' in res.data[0], url).toBe(expand)
      }
      const legacy = await call('POST', '/api/v2/dataApp/datamart/list', { expandDetails: false })
      expect('datamartTables' in legacy.json().data[0]).toBe(false)
      const legacyDefault = await call('POST', '/api/v2/dataApp/datamart/list', {})
      expect('datamartTables' in legacyDefault.json().data[0]).toBe(true)
      const legacyBad = await call('POST', '/api/v2/dataApp/datamart/list', { expandDetails: 'true' })
      expectError(legacyBad, 400, 'INVALID_REQUEST_BODY')

      for (let i = 0; i < 11; i++) {
        await call('POST', '/api/v2/data-app/datamarts', {
          name: `m${i}`,
          datasourceName: 'warehouse',
          tableList: tableList().slice(1),
        })
      }
      expect((await call('GET', '/api/v2/data-app/datamarts?isPagination=true&pageNumber=1')).json().data).toHaveLength(
        10,
      )
      expect((await call('GET', '/api/v2/data-app/datamarts?isPagination=true&pageNumber=2')).json().data).toHaveLength(
        2,
      )
      expect(
        (await call('GET', '/api/v2/data-app/datamarts?isPagination=false&pageNumber=2')).json().data,
      ).toHaveLength(12)
      expect(
        (await call('POST', '/api/v2/dataApp/datamart/list', { isPagination: true, pageNumber: 2 })).json().data,
      ).toHaveLength(2)

      const updated = await call('PUT', '/api/v2/data-app/datamarts', {
        datamartName: 'sales',
        tableList: tableList().slice(1),
      })
      expect(updated.json()).toEqual({ id: 'sales', error: null })
      const after = (await call('GET', '/api/v2/data-app/datamarts')).json().data[0]
      expect(after.datamartTables.map((x: { tableName: string }) => x.tableName)).toEqual(['customers'])

      expect((await call('DELETE', '/api/v2/data-app/datamart?datamartName=sales')).json()).toEqual({
        id: 'sales',
        error: null,
      })
      expectError(await call('DELETE', '/api/v2/data-app/datamart?datamartName=sales'), 400, 'INVALID_REQUEST_BODY')
      expect((await call('POST', '/api/v2/dataApp/datamart/delete', { datamartName: 'm0' })).json()).toEqual({
        id: 'm0',
        error: null,
      })
      expectError(
        await call('POST', '/api/v2/dataApp/datamart/delete', { datamartName: 'm0' }),
        400,
        'INVALID_REQUEST_BODY',
      )
    })

    it('refuses an unknown datasource, table, column or relationship, naming it', async () => {
      await call('POST', '/api/v2/datasource', pgSource())
      const create = (body: object) =>
        call('POST', '/api/v2/data-app/datamarts', {
          name: 'x',
          datasourceName: 'warehouse',
          tableList: tableList(),
          ...body,
        })
      expectError(await create({ datasourceName: 'nope' }), 400, 'DATASOURCE_NAME_ERROR')
      expectError(
        await create({ tableList: [{ schemaName: wh.schema, name: 'nope' }] }),
        400,
        'INVALID_REQUEST_BODY',
        /tableList\[0\].*nope/,
      )
      expectError(
        await create({ tableList: [{ schemaName: wh.schema, name: 'orders', columns: [{ name: 'nope' }] }] }),
        400,
        'INVALID_REQUEST_BODY',
        /nope/,
      )
      expectError(
        await create({ tableList: [{ schemaName: wh.schema, name: 'orders', clientColumn: 'nope' }] }),
        400,
        'INVALID_REQUEST_BODY',
        /clientColumn/,
      )
      expectError(
        await create({ relationships: [{ ...relationships()[0], childColumn: 'nope' }] }),
        400,
        'INVALID_REQUEST_BODY',
        /relationships\[0\]\.childColumn/,
      )
      expectError(
        await create({ relationships: [{ ...relationships()[0], joinType: 'CROSS JOIN' }] }),
        400,
        'INVALID_REQUEST_BODY',
      )
      expectError(
        await call('PUT', '/api/v2/data-app/datamarts', { datamartName: 'nope', tableList: tableList() }),
        400,
        'INVALID_REQUEST_BODY',
        /nope/,
      )
    })
  })

  describe('workspaces', () => {
    it('creates and updates workspaces, with the documented codes for what does not resolve', async () => {
      await call('POST', '/api/v2/datasource', pgSource())
      await call('POST', '/api/v2/data-app/datamarts', {
        name: 'sales',
        datasourceName: 'warehouse',
        tableList: [{ schemaName: wh.schema, name: 'orders' }],
      })
      const created = await call('POST', '/api/v2/workspace', {
        name: 'main',
        connectionType: 'DATASOURCE',
        datasourceName: 'warehouse',
      })
      expect(created.json()).toEqual({ data: { name: 'main' }, error: null })
      expectError(
        await call('POST', '/api/v2/workspace', {
          name: 'main',
          connectionType: 'DATASOURCE',
          datasourceName: 'warehouse',
        }),
        400,
        'INVALID_REQUEST_BODY',
        /already exists/,
      )
      const updated = await call('PUT', '/api/v2/workspace', {
        name: 'main',
        connectionType: 'DATAMART',
        datamartName: 'sales',
        themeName: 'dark',
        isEnableMetricSummary: true,
      })
      expect(updated.json()).toEqual({ data: { name: 'main' }, error: null })
      expectError(
        await call('PUT', '/api/v2/workspace', {
          name: 'nope',
          connectionType: 'DATASOURCE',
          datasourceName: 'warehouse',
        }),
        400,
        'WORKSPACE_DOES_NOT_EXIST',
      )
      expectError(
        await call('PUT', '/api/v2/workspace', { name: 'main', connectionType: 'DATASOURCE', datasourceName: 'nope' }),
        400,
        'INVALID_DATASOURCE_NAME',
      )
      expectError(
        await call('PUT', '/api/v2/workspace', { name: 'main', connectionType: 'DATAMART', datamartName: 'nope' }),
        400,
        'INVALID_DATAMART_NAME',
      )
      expectError(
        await call('PUT', '/api/v2/workspace', { name: 'main', connectionType: 'DATAMART' }),
        400,
        'INVALID_DATAMART_NAME',
      )
      expectError(
        await call('PUT', '/api/v2/workspace', { name: 'main' }),
        400,
        'INVALID_REQUEST_BODY',
        /connectionType/,
      )
      expectError(
        await call('PUT', '/api/v2/workspace', {
          name: 'main',
          connectionType: 'DATASOURCE',
          datasourceName: 'warehouse',
          bogus: 1,
        }),
        400,
        'INVALID_REQUEST_BODY',
        /bogus/,
      )
      expectError(
        await call('DELETE', '/api/v2/data-app/datamart?datamartName=sales'),
        400,
        'INVALID_REQUEST_BODY',
        /used by workspace/,
      )
    })
  })
})
