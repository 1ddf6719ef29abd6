import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import { READ_ONLY_ACCESS } from '../../src/schemas/embeds.js'
import { bearer, bootstrap } from './bootstrap.js'
import type { PgWarehouse } from './warehouse.js'

/** A dashboard document over the warehouse of helpers/warehouse.ts. */
export function salesDocument(schema: string) {
  return {
    name: 'Sales overview',
    filters: [
      { name: 'country', label: 'Country', type: 'multi-select', table: `${schema}.customers`, column: 'country' },
      { name: 'status', label: 'Order status', type: 'multi-select', table: `${schema}.orders`, column: 'status' },
      { name: 'amount', label: 'Amount', type: 'number-range', table: `${schema}.orders`, column: 'amount' },
      { name: 'period', label: 'Order date', type: 'date-range', table: `${schema}.orders`, column: 'created_at' },
    ],
    layout: [
      { metricId: 'revenue', x: 0, y: 0, w: 3, h: 2 },
      { metricId: 'revenue_by_country', x: 3, y: 0, w: 6, h: 4 },
      { metricId: 'orders_by_month', x: 0, y: 4, w: 12, h: 4 },
    ],
    metrics: [
      {
        metricId: 'revenue',
        name: 'Revenue',
        chart: { type: 'single-value', y: ['revenue'] },
        query: { from: `${schema}.orders`, measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
      },
      {
        metricId: 'revenue_by_country',
        name: 'Revenue by country',
        chart: { type: 'bar', x: 'country', y: ['revenue'] },
        formats: { revenue: { style: 'currency', currency: 'USD' } },
        query: {
          from: `${schema}.orders`,
          measures: [
            { name: 'revenue', aggregate: 'sum', column: 'amount' },
            { name: 'orders', aggregate: 'count' },
          ],
          dimensions: [{ name: 'country', table: `${schema}.customers`, column: 'country' }],
          orderBy: [{ name: 'country', direction: 'asc' }],
        },
        filters: [{ name: 'paid', label: 'Paid only', type: 'multi-select', column: 'status' }],
      },
      {
        metricId: 'orders_by_month',
        name: 'Orders by month',
        chart: { type: 'line', x: 'month', y: ['orders'] },
        query: {
          from: `${schema}.orders`,
          measures: [{ name: 'orders', aggregate: 'count' }],
          dimensions: [{ name: 'month', column: 'created_at', timeGrain: 'month' }],
          orderBy: [{ name: 'month', direction: 'asc' }],
        },
      },
    ],
  }
}

export const ACCESS = { ...READ_ONLY_ACCESS, datamartName: 'sales', isAllowUnderlyingData: true }

/** A datamart's tables over `schema`: orders, customers, then `extra`, each with its tenant column. */
export function salesTables(schema: string, ...extra: string[]) {
  return ['orders', 'customers', ...extra].map((name) => ({ schemaName: schema, name, clientColumn: 'tenant' }))
}

/** customers 1:n orders, on customer_id. */
export function salesRelationships(schema: string) {
  return [
    {
      parentTable: `${schema}.customers`,
      parentColumn: 'id',
      childTable: `${schema}.orders`,
      childColumn: 'customer_id',
      cardinality: 'OneToMany',
      joinType: 'INNER JOIN',
    },
  ]
}

export type Call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  token: string,
  payload?: object,
) => Promise<LightMyRequestResponse>

/**
 * Admin → service token → data app → postgres datasource → datamart (tenant column on both
 * tables, customers 1:n orders) → workspace → imported dashboard → dashboard embed.
 */
export async function setupAnalytics(app: FastifyInstance, wh: PgWarehouse, dataAppName = 'salesapp') {
  const creds = await bootstrap(app, dataAppName)
  const call: Call = (method, url, token, payload) => app.inject({ method, url, payload, headers: bearer(token) })
  const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) => {
    const res = await call(method, url, token, payload)
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200)
    return res.json()
  }
  const s = creds.serviceToken
  await ok('POST', '/api/v2/datasource', s, {
    datasourceType: 'postgres',
    credentials: { name: 'warehouse', ...wh.credentials },
  })
  await ok('POST', '/api/v2/data-app/datamarts', s, {
    name: 'sales',
    datasourceName: 'warehouse',
    tableList: salesTables(wh.schema),
    relationships: salesRelationships(wh.schema),
  })
  await ok('POST', '/api/v2/workspace', s, { name: 'main', connectionType: 'DATAMART', datamartName: 'sales' })
  await ok('POST', '/api/v2/data-app/import-dashboard', s, {
    workspaceName: 'main',
    dashboardId: 'sales-overview',
    importDashboardData: salesDocument(wh.schema),
  })
  const embed = await ok('POST', '/api/v2/data-app/embeds', creds.dataAppKey, {
    dashboardId: 'sales-overview',
    embedType: 'dashboard',
    workspaceName: 'main',
    name: 'Sales',
    accessSettings: ACCESS,
  })
  return { ...creds, call, ok, embedId: embed.id as string }
}

export type Analytics = Awaited<ReturnType<typeof setupAnalytics>>

/** A dashboard embed of the suite's data app (workspace `main`, read-only ACCESS unless given): its id. */
export async function embedDashboard(
  a: Analytics,
  dashboardId: string,
  options: { workspaceName?: string; name?: string; accessSettings?: object } = {},
): Promise<string> {
  const { workspaceName = 'main', name, accessSettings = ACCESS } = options
  const body = { dashboardId, embedType: 'dashboard', workspaceName, accessSettings, ...(name ? { name } : {}) }
  return (await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, body)).id as string
}

/** A company metric, orders by customers.country, restricted by the RLS variable `countries` on that column. */
export function byCountryRls(schema: string) {
  return {
    metricId: 'by_country',
    name: 'Orders by country',
    chart: { type: 'bar', x: 'country', y: ['orders'] },
    query: {
      from: `${schema}.orders`,
      measures: [{ name: 'orders', aggregate: 'count' }],
      dimensions: [{ name: 'country', table: `${schema}.customers`, column: 'country' }],
    },
    rls: [{ variable: 'countries', table: `${schema}.customers`, column: 'country' }],
  }
}

/**
 * The sales dashboard plus a multi-select on customers.name and a metric with RLS on
 * customers.country (variable `countries`), imported as `dashboardId`, with an embed that may
 * build: its id. What the value-picker tests open.
 */
export async function pickerDashboard(a: Analytics, schema: string, dashboardId: string): Promise<string> {
  const document = salesDocument(schema)
  await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
    workspaceName: 'main',
    dashboardId,
    importDashboardData: {
      ...document,
      filters: [
        ...document.filters,
        { name: 'customer', label: 'Customer', type: 'multi-select', table: `${schema}.customers`, column: 'name' },
      ],
      metrics: [...document.metrics, byCountryRls(schema)],
    },
  })
  const embed = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
    dashboardId,
    embedType: 'dashboard',
    workspaceName: 'main',
    accessSettings: { ...ACCESS, isAllowMetricCreation: true },
  })
  return embed.id as string
}

/** How tenantedEmbed() tenants what it makes. */
export interface EmbedTenancy {
  /**
   * A datasource of its own (`wh<name>`) over the warehouse, with these tenancySettings when
   * given; without it the datamart reads the suite's `warehouse`.
   */
  readonly datasource?: { readonly tenancySettings?: (schema: string) => object }
  /** The datamart's client column on both tables (TABLE tenancy through the datamart). */
  readonly clientColumn?: boolean
  /** The embed's accessSettings.tableTenancySettings on orders and customers. */
  readonly tableTenancy?: boolean
  /** Columns of orders the datamart hides. */
  readonly hidden?: readonly string[]
}

/**
 * A datamart (`mart<name>`), workspace (`ws<name>`), sales dashboard (`dash-<name>`) and
 * dashboard embed of their own over `wh`, tenanted as `tenancy` says: the embed's id.
 */
export async function tenantedEmbed(
  a: Analytics,
  wh: PgWarehouse,
  name: string,
  tenancy: EmbedTenancy,
): Promise<string> {
  const s = a.serviceToken
  const { datasource, clientColumn, tableTenancy, hidden } = tenancy
  if (datasource) {
    const { tenancySettings } = datasource
    await a.ok('POST', '/api/v2/datasource', s, {
      datasourceType: 'postgres',
      credentials: { name: `wh${name}`, ...wh.credentials },
      ...(tenancySettings ? { tenancySettings: tenancySettings(wh.schema) } : {}),
    })
  }
  await a.ok('POST', '/api/v2/data-app/datamarts', s, {
    name: `mart${name}`,
    datasourceName: datasource ? `wh${name}` : 'warehouse',
    tableList: ['orders', 'customers'].map((table) => ({
      schemaName: wh.schema,
      name: table,
      ...(clientColumn ? { clientColumn: 'tenant' } : {}),
      ...(table === 'orders' && hidden ? { columns: hidden.map((c) => ({ name: c, isHide: true })) } : {}),
    })),
    relationships: salesRelationships(wh.schema),
  })
  await a.ok('POST', '/api/v2/workspace', s, {
    name: `ws${name}`,
    connectionType: 'DATAMART',
    datamartName: `mart${name}`,
  })
  await a.ok('POST', '/api/v2/data-app/import-dashboard', s, {
    workspaceName: `ws${name}`,
    dashboardId: `dash-${name}`,
    importDashboardData: salesDocument(wh.schema),
  })
  const tableTenancySettings = ['orders', 'customers'].map((t) => ({
    name: `${wh.schema}.${t}`,
    clientColumn: 'tenant',
  }))
  const embed = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
    dashboardId: `dash-${name}`,
    embedType: 'dashboard',
    workspaceName: `ws${name}`,
    accessSettings: { ...ACCESS, datamartName: `mart${name}`, ...(tableTenancy ? { tableTenancySettings } : {}) },
  })
  return embed.id as string
}
