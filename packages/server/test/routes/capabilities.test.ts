/**
 * Services read the connector capabilities of the registry (connectors/registry.ts) instead of
 * lists of engines: the DATABASE-tenancy unit names what a clientId must be, and a datamart
 * relationship cannot ask for a FULL JOIN its engine does not have.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import mysql from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { READ_ONLY_ACCESS } from '../../src/schemas/embeds.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'
import { expectError } from '../helpers/expect-error.js'
import { MARIADB } from '../helpers/mariadb-warehouse.js'
import { requireService } from '../helpers/services.js'

const hasMaria = await requireService('MariaDB', '127.0.0.1', 3306)

describe('services read the connector capabilities', () => {
  let t: TestContext
  let creds: Awaited<ReturnType<typeof bootstrap>>
  const call = (method: 'POST' | 'GET', url: string, payload: object, token = creds.serviceToken) =>
    t.app.inject({ method, url, payload, headers: bearer(token) })
  const ok = async (method: 'POST' | 'GET', url: string, payload: object, token?: string) => {
    const res = await call(method, url, payload, token)
    expect(res.statusCode, res.body).toBe(200)
    return res.json()
  }

  beforeAll(async () => {
    t = await createTestApp('sqlite', { RATE_LIMIT: '0' })
    creds = await bootstrap(t.app)
    const dir = join(t.config.filesRoot, 'shop')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'orders.csv'), 'id,customer_id,amount\n1,1,10.5\n2,2,20\n')
    writeFileSync(join(dir, 'customers.csv'), 'id,name\n1,alpha\n3,gamma\n')
  })
  afterAll(async () => {
    await t?.close()
  })

  it('DATABASE tenancy: a clientId that is not one of the datasource’s units is refused naming the unit (csv: a schema)', async () => {
    await ok('POST', '/api/v2/datasource', {
      datasourceType: 'csv',
      credentials: { name: 'shop', path: 'shop' },
      tenancySettings: { tenancyLevel: 'DATABASE' },
    })
    await ok('POST', '/api/v2/workspace', { name: 'shop', connectionType: 'DATASOURCE', datasourceName: 'shop' })
    await ok('POST', '/api/v2/data-app/import-dashboard', {
      workspaceName: 'shop',
      dashboardId: 'shop',
      importDashboardData: {
        name: 'Shop',
        filters: [],
        layout: [{ metricId: 'orders', x: 0, y: 0, w: 4, h: 2 }],
        metrics: [
          {
            metricId: 'orders',
            name: 'Orders',
            chart: { type: 'single-value', y: ['orders'] },
            query: { from: 'main.orders', measures: [{ name: 'orders', aggregate: 'count' }] },
          },
        ],
      },
    })
    const embed = await ok(
      'POST',
      '/api/v2/data-app/embeds',
      {
        dashboardId: 'shop',
        embedType: 'metric',
        metricId: 'orders',
        workspaceName: 'shop',
        accessSettings: READ_ONLY_ACCESS,
      },
      creds.dataAppKey,
    )
    const query = (clientId: string) =>
      call('POST', '/api/v2/data-app/query', { embedId: embed.id, metricId: 'orders', clientId }, creds.dataAppKey)
    expectError(await query('acme'), 400, 'CLIENT_ID_ERROR', /^clientId: acme is not a schema of datasource shop$/)
    const main = await query('main')
    expect(main.statusCode, main.body).toBe(200)
    expect(main.json().data).toEqual([{ orders: 2 }])
  })

  it('a FULL JOIN relationship is accepted where the engine has one (csv: DuckDB)', async () => {
    await ok('POST', '/api/v2/datasource', { datasourceType: 'csv', credentials: { name: 'shop2', path: 'shop' } })
    const res = await call('POST', '/api/v2/data-app/datamarts', datamart('full', 'shop2', 'main'))
    expect(res.statusCode, res.body).toBe(200)
  })

  describe.skipIf(!hasMaria)('on MariaDB (mysql), which has no FULL JOIN', () => {
    const database = `strata_caps_${Date.now().toString(36)}`
    const admin = async (sql: string) => {
      const c = await mysql.createConnection(MARIADB)
      try {
        await c.query(sql)
      } finally {
        await c.end()
      }
    }
    beforeAll(async () => {
      await admin(`create database ${database}`)
      await admin(`create table ${database}.customers (id int primary key, name text)`)
      await admin(`create table ${database}.orders (id int primary key, customer_id int, amount decimal(10,2))`)
    })
    afterAll(async () => {
      await admin(`drop database if exists ${database}`)
    })

    it('refuses the datamart naming the relationship; the other join types are accepted', async () => {
      await ok('POST', '/api/v2/datasource', {
        datasourceType: 'mysql',
        credentials: { name: 'maria', ...MARIADB, database },
      })
      expectError(
        await call('POST', '/api/v2/data-app/datamarts', datamart('maria-full', 'maria', database)),
        400,
        'INVALID_REQUEST_BODY',
        /^relationships\[0\]\.joinType: mysql datasources have no FULL JOIN; use INNER, LEFT or RIGHT JOIN$/,
      )
      const left = await call(
        'POST',
        '/api/v2/data-app/datamarts',
        datamart('maria-left', 'maria', database, 'LEFT JOIN'),
      )
      expect(left.statusCode, left.body).toBe(200)
    })
  })
})

function datamart(name: string, datasourceName: string, schema: string, joinType = 'FULL JOIN') {
  return {
    name,
    datasourceName,
    tableList: [
      { schemaName: schema, name: 'orders' },
      { schemaName: schema, name: 'customers' },
    ],
    relationships: [
      {
        parentTable: `${schema}.customers`,
        parentColumn: 'id',
        childTable: `${schema}.orders`,
        childColumn: 'customer_id',
        joinType,
      },
    ],
  }
}
