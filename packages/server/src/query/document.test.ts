import { describe, expect, it } from 'vitest'
import { model } from '../../test/fixtures/query.js'
import { type DashboardDocument, rewriteSchemas, validateDocument } from './document.js'
import { resolveFilters } from './filters.js'

// biome-ignore lint/suspicious/noExplicitAny: the tests mutate documents freely to break them
type Loose = any

const doc = (): DashboardDocument => ({
  name: 'Sales',
  filters: [
    { name: 'country', label: 'Country', type: 'multi-select', table: 'public.customers', column: 'name' },
    {
      name: 'period',
      label: 'Order date',
      type: 'date-range',
      table: 'orders',
      column: 'ordered_on',
      default: 'Last 90 days',
    },
  ],
  layout: [{ metricId: 'rev', x: 0, y: 0, w: 6, h: 4 }],
  metrics: [
    {
      metricId: 'rev',
      name: 'Revenue',
      chart: { type: 'line', x: 'month', y: ['revenue'], ...{ color: 'teal' } },
      query: {
        from: 'orders',
        measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
        dimensions: [
          { name: 'month', column: 'created_at', timeGrain: 'month' },
          { name: 'country', table: 'customers', column: 'country_code' },
        ],
        where: [{ column: 'status', operator: 'in', values: ['paid'] }],
        orderBy: [{ name: 'month', direction: 'asc' }],
        limit: 100,
      },
      filters: [{ name: 'status', label: 'Status', type: 'multi-select', column: 'status' }],
      rls: [{ variable: 'region', column: 'region', table: 'countries' }],
      comparison: { period: 'previous-period' },
    },
    {
      metricId: 'raw',
      name: 'Raw',
      chart: { type: 'table' },
      sql: 'select 1 from orders where client_id = {{clientId}}',
    },
  ],
})

const error = (d: unknown): string => {
  try {
    validateDocument(d, model(), 'postgres')
  } catch (e) {
    expect(e).toMatchObject({ status: 400, code: 'INVALID_REQUEST_BODY' })
    return (e as Error).message
  }
  throw new Error('expected validateDocument to throw')
}
const withMetric = (patch: (m: Loose) => void) => {
  const d = structuredClone(doc()) as Loose
  patch(d.metrics[0])
  return d
}

describe('validateDocument', () => {
  it('accepts the document and canonicalises every table path', () => {
    const v = validateDocument(doc(), model(), 'postgres')
    expect(v.metrics[0]?.query?.from).toBe('public.orders')
    expect(v.metrics[0]?.query?.dimensions?.[1]?.table).toBe('public.customers')
    expect(v.filters?.[1]?.table).toBe('public.orders')
    expect(v.metrics[0]?.chart).toMatchObject({ color: 'teal' })
  })

  it.each([
    [
      withMetric((m) => (m.query.measures[0].column = 'amout')),
      'importDashboardData.metrics[0].query.measures[0].column: no column "amout" in public.orders',
    ],
    [
      withMetric((m) => (m.query.from = 'public.nope')),
      'importDashboardData.metrics[0].query.from: no table "public.nope"',
    ],
    [
      withMetric((m) => (m.query.measures[0].aggregate = 'median')),
      'importDashboardData.metrics[0].query.measures[0].aggregate must be one of: sum, count, count-distinct, avg, min, max',
    ],
    [
      withMetric((m) => (m.chart.type = 'radar')),
      'importDashboardData.metrics[0].chart.type must be one of: line, bar, stacked-bar',
    ],
    [
      withMetric((m) => delete m.query.measures[0].column),
      'importDashboardData.metrics[0].query.measures[0].column: sum needs a column',
    ],
    [
      withMetric((m) => (m.query.were = [])),
      'importDashboardData.metrics[0].query.were is not an allowed field (did you mean "where"?)',
    ],
    [
      withMetric((m) => {
        m.query.dimensions[0].timeGrain = 'month'
        m.query.dimensions[0].column = 'status'
      }),
      'dimensions[0].timeGrain: column "status" of public.orders is string',
    ],
    [
      withMetric((m) => {
        m.query.dimensions[1].table = 'public.audit'
        m.query.dimensions[1].column = 'what'
      }),
      'importDashboardData.metrics[0].query: no relationship path from public.orders to public.audit',
    ],
    [
      withMetric((m) => (m.query.where[0].operator = 'between')),
      'where[0].values: operator between takes 2 value(s), got 1',
    ],
    [withMetric((m) => (m.query.orderBy[0].name = 'nope')), 'orderBy[0].name: no measure or dimension "nope"'],
    [withMetric((m) => (m.chart.y = ['nope'])), 'metrics[0].chart.y[0]: no measure or dimension "nope"'],
    [
      withMetric((m) => (m.query.dimensions[0].name = 'revenue')),
      'query.dimensions[0].name: output column "revenue" is defined twice',
    ],
    [withMetric((m) => (m.sql = 'select 1')), 'importDashboardData.metrics[0]: give exactly one of query or sql'],
    [
      withMetric((m) => (m.filters[0].column = 'nope')),
      'metrics[0].filters[0].column: no column "nope" in public.orders',
    ],
    [
      withMetric((m) => m.rls.push({ variable: 'region', column: 'name', table: 'countries' })),
      'metrics[0].rls[1].variable: "region" is bound twice',
    ],
    [withMetric((m) => (m.metricId = 'raw')), 'importDashboardData.metrics[1].metricId: duplicate metricId "raw"'],
    [
      withMetric((m) => {
        m.comparison = { period: 'previous-period' }
        m.query.measures = []
        m.chart.y = []
      }),
      'metrics[0].comparison: compares the first measure, so it needs a query metric with a measure',
    ],
  ])('%#: names the path', (d, message) => {
    expect(error(d)).toContain(message)
  })

  it('chart types with a shape: accepted when the query fits, else a 400 naming the field', () => {
    const orders = { name: 'orders', aggregate: 'count' }
    const shaped = (chart: Loose, patch: (m: Loose) => void = () => {}) =>
      withMetric((m) => {
        m.chart = chart
        m.query.measures.push(orders)
        patch(m)
      })
    const oneDimension = (m: Loose) => m.query.dimensions.pop()
    const oneMeasure = (m: Loose) => m.query.measures.pop()
    const oneOfEach = (m: Loose) => {
      oneDimension(m)
      oneMeasure(m)
    }
    for (const [chart, patch] of [
      [{ type: 'combo', x: 'month', y: ['revenue', 'orders'], line: 'orders' }, oneDimension],
      [{ type: 'scatter', y: ['revenue', 'orders'], seriesBy: 'country' }, undefined],
      [{ type: 'pivot', x: 'month', columns: 'country', y: ['revenue', 'orders'] }, undefined],
    ] as const) {
      expect(validateDocument(shaped(chart, patch), model(), 'postgres').metrics[0]?.chart).toEqual(chart)
    }
    expect(validateDocument(shaped({ type: 'funnel' }, oneOfEach), model(), 'postgres')).toBeTruthy()
    expect(validateDocument(shaped({ type: 'trend', y: ['revenue'] }, oneDimension), model(), 'postgres')).toBeTruthy()

    expect(error(shaped({ type: 'scatter' }, oneMeasure))).toBe(
      'importDashboardData.metrics[0].query.measures: A scatter chart needs two measures, one for each axis; this one has 1 measure and 2 dimensions.',
    )
    expect(error(shaped({ type: 'scatter', y: ['revenue'] }))).toContain(
      'metrics[0].chart.y: A scatter chart plots exactly two',
    )
    expect(error(shaped({ type: 'scatter', seriesBy: 'revenue' }))).toContain('metrics[0].chart.seriesBy:')
    expect(error(shaped({ type: 'combo', line: 'margin' }, oneDimension))).toBe(
      "importDashboardData.metrics[0].chart.line: A combo chart's line must be one of its measures (revenue, orders).",
    )
    expect(error(shaped({ type: 'combo' }))).toContain(
      'metrics[0].query.dimensions: A combo chart needs exactly one dimension',
    )
    expect(error(shaped({ type: 'combo' }, oneOfEach))).toContain(
      'metrics[0].query.measures: A combo chart needs at least two measures',
    )
    expect(error(shaped({ type: 'funnel' }, oneDimension))).toContain(
      'metrics[0].query.measures: A funnel needs one dimension (its stages) and one measure; this one has 2 measures and 1 dimension.',
    )
    expect(error(shaped({ type: 'pivot' }, oneDimension))).toContain(
      'metrics[0].query.dimensions: A pivot table needs two',
    )
    expect(error(shaped({ type: 'pivot', columns: 'revenue' }))).toContain('metrics[0].chart.columns:')
    // the trend line runs over time: a dimension without a time grain does not fit
    const noGrain = (m: Loose) => {
      m.query.dimensions.shift()
      m.query.orderBy = []
    }
    expect(error(shaped({ type: 'trend' }, noGrain))).toContain(
      'metrics[0].query.dimensions: A number with trend needs exactly one dimension, a date with a time grain',
    )
  })

  it('formats: closed objects keyed by a query metric’s measures and dimensions; any column of a SQL metric', () => {
    const formats = {
      revenue: { style: 'currency', currency: 'EUR', decimals: 0, compact: true },
      month: { style: 'number' },
    }
    const ok = withMetric((m) => (m.formats = formats))
    ok.metrics[1].formats = { anything: { style: 'percent', decimals: 1 } }
    const v = validateDocument(ok, model(), 'postgres')
    expect(v.metrics[0]?.formats).toEqual(formats)
    expect(v.metrics[1]?.formats).toEqual({ anything: { style: 'percent', decimals: 1 } })
    expect(error(withMetric((m) => (m.formats = { revenu: { style: 'number' } })))).toBe(
      'importDashboardData.metrics[0].formats.revenu: metric rev has no measure or dimension "revenu" (formats may name "revenue", "month", "country")',
    )
    expect(error(withMetric((m) => (m.formats = { revenue: { style: 'currency' } })))).toBe(
      'importDashboardData.metrics[0].formats.revenue.currency: style "currency" needs an ISO 4217 code, e.g. "USD"',
    )
    expect(error(withMetric((m) => (m.formats = { revenue: { style: 'percent', currency: 'USD' } })))).toContain(
      'formats.revenue.currency: only style "currency" takes a currency',
    )
    expect(error(withMetric((m) => (m.formats = { revenue: { style: 'currency', currency: 'usd' } })))).toMatch(
      /^importDashboardData\.metrics\[0\]\.formats\.revenue\.currency must be a three-letter ISO 4217 code/,
    )
    expect(error(withMetric((m) => (m.formats = { revenue: { style: 'currency', currency: 'XYZ' } })))).toContain(
      'formats.revenue.currency: "XYZ" is not an ISO 4217 currency code',
    )
    expect(error(withMetric((m) => (m.formats = { revenue: { style: 'money' } })))).toContain(
      'formats.revenue.style must be one of: number, currency, percent',
    )
    expect(error(withMetric((m) => (m.formats = { revenue: { style: 'number', decimals: 7 } })))).toContain(
      'formats.revenue.decimals',
    )
    expect(error(withMetric((m) => (m.formats = { revenue: { style: 'number', unit: 'kg' } })))).toBe(
      'importDashboardData.metrics[0].formats.revenue.unit is not an allowed field',
    )
  })

  it('refuses a SQL metric that is not one SELECT over tables of the model, naming the metric and the reason', () => {
    const sqlAt = (sql: string) => {
      const d = structuredClone(doc()) as Loose
      d.metrics[1].sql = sql
      return d
    }
    expect(error(sqlAt("UPDATE orders SET status = 'x' WHERE client_id <> {{clientId}}"))).toMatch(
      /^importDashboardData\.metrics\[1\]\.sql: a SQL metric must be one SELECT query, not UPDATE/,
    )
    expect(error(sqlAt('select * from secrets'))).toMatch(
      /^importDashboardData\.metrics\[1\]\.sql: .*no table "secrets"/,
    )
    expect(error(sqlAt('select * from orders; drop table orders'))).toMatch(/exactly one statement/)
    expect(error(sqlAt('selec 1'))).toMatch(/metrics\[1\]\.sql: the SQL does not parse as postgres/)
    let thrown: unknown
    try {
      validateDocument(sqlAt('select 1'), model(), undefined)
    } catch (e) {
      thrown = e
    }
    expect(thrown).toMatchObject({ status: 400, message: expect.stringMatching(/runs no SQL metrics/) })
  })

  it('checks the table and column a SQL metric’s rls entry names (where end users’ metrics are restricted)', () => {
    const rlsAt = (rls: unknown) => {
      const d = structuredClone(doc()) as Loose
      d.metrics[1].rls = rls
      return d
    }
    expect(error(rlsAt([{ variable: 'r', table: 'nowhere', column: 'region' }]))).toMatch(
      /^importDashboardData\.metrics\[1\]\.rls\[0\]\.table: no table "nowhere"/,
    )
    expect(error(rlsAt([{ variable: 'r', table: 'countries', column: 'nope' }]))).toMatch(
      /^importDashboardData\.metrics\[1\]\.rls\[0\]\.column: no column "nope" in public\.countries/,
    )
    const ok = validateDocument(rlsAt([{ variable: 'r', table: 'countries', column: 'region' }]), model(), 'postgres')
    expect(ok.metrics[1]?.rls).toEqual([{ variable: 'r', table: 'public.countries', column: 'region' }])
  })

  it('checks layout, dashboard filters and the root', () => {
    const d = structuredClone(doc()) as Loose
    d.layout[0].metricId = 'ghost'
    expect(error(d)).toBe('importDashboardData.layout[0].metricId: no metric "ghost"')
    const f = structuredClone(doc()) as Loose
    f.filters[1].default = 'Last fortnight'
    expect(error(f)).toBe('importDashboardData.filters[1].default: "Last fortnight" is not a date preset')
    const dup = structuredClone(doc()) as Loose
    dup.filters[1].label = 'country'
    expect(error(dup)).toContain('importDashboardData.filters[1]: filter name or label "country" is used twice')
    expect(error(null)).toMatch(/^importDashboardData/)
    expect(error({ name: 'x' })).toBe('importDashboardData.metrics is required')
  })
})

describe('rewriteSchemas', () => {
  it('rewrites the schema part of every table reference, and nothing else', () => {
    const out = rewriteSchemas(doc(), [{ replaceSchema: 'public', targetSchema: 'tenant_a' }])
    expect(out.filters?.[0]?.table).toBe('tenant_a.customers')
    expect(out.filters?.[1]?.table).toBe('orders')
    expect(out.metrics[0]?.query?.dimensions?.[1]?.table).toBe('customers')
    expect(out.metrics[1]?.sql).toBe('select 1 from orders where client_id = {{clientId}}')
    const d = doc()
    d.metrics[0]!.query!.from = 'public.orders'
    expect(rewriteSchemas(d, [{ replaceSchema: 'public', targetSchema: 'x' }]).metrics[0]?.query?.from).toBe('x.orders')
    expect(d.metrics[0]?.query?.from).toBe('public.orders')
    expect(rewriteSchemas('junk', [{ replaceSchema: 'a', targetSchema: 'b' }])).toBe('junk')
  })
})

describe('resolveFilters', () => {
  const d = validateDocument(doc(), model(), 'postgres')
  const m = d.metrics[0]!
  it('matches keys by name or label, case-insensitively, and applies dashboard defaults', () => {
    const out = resolveFilters(d, m, { appFilters: { STATUS: ['paid'] }, dashboardFilter: { country: ['Ana'] } })
    expect(out).toEqual([
      {
        table: 'public.orders',
        column: 'status',
        value: ['paid'],
        source: 'app',
        name: 'status',
        type: 'multi-select',
        scope: 'metric',
        trusted: true,
      },
      {
        table: 'public.customers',
        column: 'name',
        value: ['Ana'],
        source: 'dashboard',
        name: 'country',
        type: 'multi-select',
        scope: 'dashboard',
        trusted: false,
      },
      {
        table: 'public.orders',
        column: 'ordered_on',
        value: 'Last 90 days',
        source: 'dashboard',
        name: 'period',
        type: 'date-range',
        scope: 'dashboard',
        trusted: false,
      },
    ])
    const given = resolveFilters(d, m, { dashboardAppFilters: { 'order date': 'All time' } })
    expect(given.map((f) => [f.name, f.value])).toEqual([['period', 'All time']])
  })
  it('a key that matches no filter is a 400', () => {
    expect(() => resolveFilters(d, m, { metricFilter: { nope: 1 } })).toThrow(
      /metricFilter\.nope \(metric rev\): no filter named "nope"/,
    )
    expect(() => resolveFilters(d, m, { dashboardFilter: { status: 1 } })).toThrow(
      /dashboardFilter\.status: no filter named "status"/,
    )
    expect(() => resolveFilters(d, m, { dashboardFilter: [] as never })).toThrow(/must be an object/)
  })
  it('end-user values may carry the SQL form only when the caller holds a secret key', () => {
    const sql = { sql: 'select 1', columnName: 'x' }
    expect(resolveFilters(d, m, { metricFilter: { status: sql } })[0]?.trusted).toBe(false)
    expect(resolveFilters(d, m, { metricFilter: { status: sql }, userFiltersTrusted: true })[0]?.trusted).toBe(true)
  })
})
