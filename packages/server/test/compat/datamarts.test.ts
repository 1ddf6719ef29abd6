import { beforeEach, describe, expect, it } from 'vitest'
import { storeKinds } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { useWarehouseApp } from '../helpers/suite.js'

/**
 * The hosted service's published datamart examples, replayed: its list answer's field names
 * (on the preferred GET and the legacy POST), and create/update bodies written in those names.
 * Bodies written for these tests after the service's public API reference, over the test
 * warehouse of helpers/warehouse.ts (customers, orders).
 */
const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

const LISTS = [
  ['GET', '/api/v2/data-app/datamarts'],
  ['POST', '/api/v2/dataApp/datamart/list'],
] as const

describe.skipIf(!hasPg).each(storeKinds)('hosted-service datamart names on %s', (store) => {
  const { wh, t } = useWarehouseApp(store)
  let service: string
  beforeEach(async () => {
    service = (await bootstrap(t.app)).serviceToken
    const res = await call('POST', '/api/v2/datasource', {
      datasourceType: 'postgres',
      credentials: { name: 'postgres-prod', ...wh.credentials },
    })
    expect(res.statusCode, res.body).toBe(200)
  })

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, payload: method === 'GET' ? undefined : (payload ?? {}), headers: bearer(service) })
  const list = async (method: 'GET' | 'POST', url: string) => {
    const res = await call(method, url)
    expect(res.statusCode, res.body).toBe(200)
    return res.json().data as Record<string, unknown>[]
  }
  const tenancySettings = () => ({
    tenancyLevel: 'TABLE',
    clientColumnType: 'STRING',
    schemaName: wh.schema,
    tableName: 'customers',
    tableClientNameColumn: 'tenant',
    tablePrimaryKeyColumn: 'id',
  })

  it('answers the list in the hosted service names, on the preferred and the legacy path', async () => {
    // the service's create example: our request names (they are its too), TABLE tenancy
    const created = await call('POST', '/api/v2/data-app/datamarts', {
      name: 'sales-analytics',
      datasourceName: 'postgres-prod',
      tableList: [
        {
          schemaName: wh.schema,
          name: 'orders',
          clientColumn: 'tenant',
          isHide: false,
          columns: [
            { name: 'id', alias: 'order_id', label: 'Order ID', isHide: false },
            { name: 'customer_id', label: 'Customer', isHide: false },
            { name: 'created_at', alias: 'date', label: 'Order Date', isTimezoneConversion: true },
          ],
        },
        { schemaName: wh.schema, name: 'customers', label: 'Customer Records', clientColumn: 'tenant' },
      ],
      relationships: [
        {
          parentTable: `${wh.schema}.orders`,
          parentColumn: 'customer_id',
          childTable: `${wh.schema}.customers`,
          childColumn: 'id',
          name: 'orders_to_customers',
          cardinality: 'ManyToOne',
          joinType: 'LEFT JOIN',
        },
      ],
      tenancySettings: tenancySettings(),
    })
    expect(created.json()).toEqual({ id: 'sales-analytics', error: null })

    for (const [method, url] of LISTS) {
      const [item] = await list(method, url)
      expect(item?.name, url).toBe('sales-analytics')
      expect(item?.datamartOrganization, url).toEqual({
        tenancyLevel: 'TABLE',
        schemaName: wh.schema,
        tableName: 'customers',
        clientColumnType: 'STRING',
        primaryDatabaseName: null,
        tableClientNameColumn: 'tenant',
        tablePrimaryKeyColumn: 'id',
      })
      expect(item?.companyIntegration, url).toMatchObject({ name: 'postgres-prod' })
      const tables = item?.datamartTables as Record<string, unknown>[]
      const orders = tables.find((x) => x.tableName === 'orders')
      expect(orders, url).toMatchObject({ schemaName: wh.schema, label: '', clientColumn: 'tenant', isHide: false })
      const columns = orders?.datamartTableColumns as Record<string, unknown>[]
      expect(
        columns.find((c) => c.columnName === 'created_at'),
        url,
      ).toEqual({
        columnName: 'created_at',
        datatype: 'datetime',
        alias: 'date',
        label: 'Order Date',
        isHide: false,
        isCustomColumn: false,
        sql: '',
        isApplyTimezone: true,
        defaultSort: null,
      })
      expect(
        columns.find((c) => c.columnName === 'id'),
        url,
      ).toMatchObject({ alias: 'order_id', label: 'Order ID' })
      expect(item?.datamartRelationships, url).toEqual([
        {
          parentTableName: `${wh.schema}.orders`,
          parentColumnName: 'customer_id',
          childTableName: `${wh.schema}.customers`,
          childColumnName: 'id',
          relationshipName: 'orders_to_customers',
          cardinality: 'ManyToOne',
          join: 'LEFT JOIN',
        },
      ])
    }
  })

  it('creates and updates from bodies in the hosted service names, and answers them back', async () => {
    // a backend that copies what the list answers into its create body
    const res = await call('POST', '/api/v2/data-app/datamarts', {
      name: 'sales-analytics',
      datasourceName: 'postgres-prod',
      tableList: [
        {
          schemaName: wh.schema,
          tableName: 'customers',
          label: 'Customer Records',
          clientColumn: 'tenant',
          isHide: false,
          datamartTableColumns: [
            { columnName: 'id', datatype: 'integer', alias: 'customer_id', label: 'Customer ID', isHide: false },
            { columnName: 'name', datatype: 'varchar', alias: 'customer_name', isApplyTimezone: false },
          ],
        },
        {
          schemaName: wh.schema,
          tableName: 'orders',
          clientColumn: 'tenant',
          datamartTableColumns: [{ columnName: 'created_at', datatype: 'timestamp', isApplyTimezone: true }],
        },
      ],
      relationships: [
        {
          parentTableName: 'orders',
          parentColumnName: 'customer_id',
          childTableName: 'customers',
          childColumnName: 'id',
          relationshipName: 'orders_to_customers',
          cardinality: 'ManyToOne',
          join: 'LEFT JOIN',
        },
      ],
    })
    expect(res.json(), res.body).toEqual({ id: 'sales-analytics', error: null })
    const [item] = await list('GET', '/api/v2/data-app/datamarts')
    const tables = item?.datamartTables as { tableName: string; datamartTableColumns: Record<string, unknown>[] }[]
    const customers = tables.find((x) => x.tableName === 'customers')
    expect(customers?.datamartTableColumns.find((c) => c.columnName === 'id')).toMatchObject({
      alias: 'customer_id',
      label: 'Customer ID',
      datatype: 'integer',
    })
    // a datatype sent is not the column's type: that is read from the database
    expect(customers?.datamartTableColumns.find((c) => c.columnName === 'name')).toMatchObject({ datatype: 'string' })
    const orders = tables.find((x) => x.tableName === 'orders')
    expect(orders?.datamartTableColumns.find((c) => c.columnName === 'created_at')).toMatchObject({
      isApplyTimezone: true,
    })
    // a table named without its schema is the one table of tableList with that name
    expect(item?.datamartRelationships).toEqual([
      {
        parentTableName: `${wh.schema}.orders`,
        parentColumnName: 'customer_id',
        childTableName: `${wh.schema}.customers`,
        childColumnName: 'id',
        relationshipName: 'orders_to_customers',
        cardinality: 'ManyToOne',
        join: 'LEFT JOIN',
      },
    ])

    const updated = await call('PUT', '/api/v2/data-app/datamarts', {
      datamartName: 'sales-analytics',
      tableList: [
        {
          schemaName: wh.schema,
          tableName: 'orders',
          datamartTableColumns: [{ columnName: 'status', label: 'Status', isApplyTimezone: false }],
        },
      ],
      tenancySettings: tenancySettings(),
    })
    expect(updated.json(), updated.body).toEqual({ id: 'sales-analytics', error: null })
    const [after] = await list('POST', '/api/v2/dataApp/datamart/list')
    expect(after?.datamartOrganization).toMatchObject({ tableClientNameColumn: 'tenant', tablePrimaryKeyColumn: 'id' })
    const only = (
      (after?.datamartTables ?? []) as { tableName: string; datamartTableColumns: Record<string, unknown>[] }[]
    )[0]
    expect(only?.tableName).toBe('orders')
    expect(only?.datamartTableColumns.find((c) => c.columnName === 'status')).toMatchObject({ label: 'Status' })
    expect(after?.datamartRelationships).toEqual([])
  })

  it('refuses both spellings of one field with different values, naming both; the same value is one field', async () => {
    const body = (table: object, relationship: object = {}) => ({
      name: 'm',
      datasourceName: 'postgres-prod',
      tableList: [
        { schemaName: wh.schema, name: 'orders', ...table },
        { schemaName: wh.schema, name: 'customers' },
      ],
      relationships: [
        {
          parentTable: `${wh.schema}.customers`,
          parentColumn: 'id',
          childTable: `${wh.schema}.orders`,
          childColumn: 'customer_id',
          ...relationship,
        },
      ],
    })
    for (const [payload, message] of [
      [body({ tableName: 'customers' }), /^tableList\[0\]: name and tableName are the same field/],
      [
        body({ columns: [{ name: 'status', columnName: 'amount' }] }),
        /^tableList\[0\]\.columns\[0\]: name and columnName are the same field/,
      ],
      [
        body({ columns: [{ name: 'created_at', isTimezoneConversion: true, isApplyTimezone: false }] }),
        /isTimezoneConversion and isApplyTimezone are the same field/,
      ],
      [body({}, { joinType: 'LEFT JOIN', join: 'INNER JOIN' }), /^relationships\[0\]: joinType and join are the same/],
      [body({}, { parentTableName: 'orders' }), /^relationships\[0\]: parentTable and parentTableName are the same/],
      [body({}, { name: 'a', relationshipName: 'b' }), /^relationships\[0\]: name and relationshipName are the same/],
      [body({ name: undefined }), /^tableList\[0\]: name \(or tableName\) is required/],
    ] as const) {
      expectError(await call('POST', '/api/v2/data-app/datamarts', payload), 400, 'INVALID_REQUEST_BODY', message)
    }
    const same = await call(
      'POST',
      '/api/v2/data-app/datamarts',
      body({ tableName: 'orders', columns: [{ name: 'status', columnName: 'status' }] }, { join: null }),
    )
    expect(same.json(), same.body).toEqual({ id: 'm', error: null })
  })
})
