import { describe, expect, it } from 'vitest'
import { ACCESS, salesDocument } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

/**
 * A dashboard exported by the hosted service imports: its documented import example (a document
 * of `layout`, `filters` and `gridMargin`) is not refused for its extra keys, what maps onto our
 * dashboard document is kept, what cannot is named in `warnings`, on every route that reads a
 * document (import, update, validate, the empty-dashboard embed). Strata's own export still
 * round-trips exactly and is still read strictly. Bodies written for these tests after the
 * service's public API reference, over helpers/analytics.ts.
 */
const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

const GRID = "importDashboardData.gridMargin: Strata's grid places items on 12 columns with fixed spacing; not imported"

describe.skipIf(!hasPg).each(storeKinds)('dashboards the hosted service exported, on %s', (store) => {
  const { wh, a } = useAnalytics(store)

  const importing = (body: object) => a.call('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, body)
  const exported = async (dashboardId: string) =>
    (await a.ok('POST', '/api/v2/data-app/export-dashboard', a.serviceToken, { dashboardId, workspaceName: 'main' }))
      .data

  /** An export as the hosted service writes one: some parts in Strata's form, others in its own. */
  const hostedExport = () => {
    const ours = salesDocument(wh.schema)
    const revenue = ours.metrics[0]
    return {
      gridMargin: { x: 10, y: 10 },
      filters: [
        ours.filters[0],
        { id: 'f-2', label: 'Region', tableName: 'customers', columnName: 'region', filterType: 'DROPDOWN' },
      ],
      layout: [
        { i: 'revenue', x: 0, y: 0, w: 6, h: 4, minW: 2, static: false },
        { i: 'chart-7', x: 6, y: 0, w: 6, h: 4 },
      ],
      metrics: [revenue, { metricId: 'chart-7', chartType: 'bar', query: 'select 1', datasetMetaData: {} }],
    }
  }
  const HOSTED_WARNINGS = [
    GRID,
    expect.stringMatching(
      /^importDashboardData\.metrics\[1\] \(metric chart-7\): not in Strata's form \(.+\); not imported$/,
    ),
    expect.stringMatching(/^importDashboardData\.filters\[1\]: not in Strata's form \(.+\); not imported$/),
    "importDashboardData.layout[0]: minW, static: no place in Strata's layout item; not imported",
    'importDashboardData.layout[1]: metric chart-7 was not imported; not placed',
  ]
  const KEPT = () => {
    const ours = salesDocument(wh.schema)
    return {
      filters: [ours.filters[0]],
      layout: [{ metricId: 'revenue', x: 0, y: 0, w: 6, h: 4 }],
      metricIds: ['revenue'],
    }
  }

  it('replays the import example: layout, filters and gridMargin; gridMargin named in warnings', async () => {
    const res = await importing({
      workspaceName: 'main',
      importDashboardData: { layout: [], filters: [], gridMargin: {} },
      dashboardId: 'sales-dashboard-1-copy',
      dashboardName: 'Sales Dashboard (Copy)',
      schemaPairs: [{ replaceSchema: 'source_schema', targetSchema: 'public' }],
    })
    expect(res.json(), res.body).toEqual({
      data: {
        response: {
          message: 'Imported dashboard Sales Dashboard (Copy) with 0 metrics',
          dashboardId: 'sales-dashboard-1-copy',
          dashboardName: 'Sales Dashboard (Copy)',
          workspaceName: 'main',
        },
        warnings: [GRID],
      },
    })
    expect(await exported('sales-dashboard-1-copy')).toEqual({
      name: 'Sales Dashboard (Copy)',
      filters: [],
      layout: [],
      metrics: [],
    })
    // the example without dashboardId or dashboardName: named by the generated id
    const bare = await importing({
      workspaceName: 'main',
      importDashboardData: { layout: [], filters: [], gridMargin: {} },
    })
    expect(bare.statusCode, bare.body).toBe(200)
    const { dashboardId, dashboardName } = bare.json().data.response
    expect(dashboardName).toBe(dashboardId)
  })

  it('keeps what fits, names what does not, on import, update, validate and the empty-dashboard embed', async () => {
    const kept = KEPT()
    const check = (doc: { name: string; filters: unknown; layout: unknown; metrics: { metricId: string }[] }) => {
      expect(doc.filters).toEqual(kept.filters)
      expect(doc.layout).toEqual(kept.layout)
      expect(doc.metrics.map((m) => m.metricId)).toEqual(kept.metricIds)
    }
    const imported = await importing({
      workspaceName: 'main',
      dashboardId: 'hosted',
      importDashboardData: hostedExport(),
    })
    expect(imported.json(), imported.body).toMatchObject({ data: { warnings: HOSTED_WARNINGS } })
    expect(imported.json().data.warnings).toHaveLength(HOSTED_WARNINGS.length)
    const doc = await exported('hosted')
    expect(doc.name).toBe('hosted')
    check(doc)

    const updated = await a.call('PUT', '/api/v2/data-app/dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'hosted',
      dashboardName: 'Hosted (updated)',
      importDashboardData: hostedExport(),
    })
    expect(updated.json(), updated.body).toMatchObject({
      data: { response: { dashboardName: 'Hosted (updated)' }, droppedEndUserMetrics: [], warnings: HOSTED_WARNINGS },
    })
    check(await exported('hosted'))

    const validated = await a.call('POST', '/api/v2/data-app/validate-dashboard', a.serviceToken, {
      workspaceName: 'main',
      importDashboardData: hostedExport(),
    })
    expect(validated.json(), validated.body).toEqual({
      data: { valid: true, metrics: [{ metricId: 'revenue', valid: true }], warnings: HOSTED_WARNINGS },
    })

    for (const path of ['/api/v2/data-app/dashboard-embeds', '/api/v2/dataApp/dashboard-embeds']) {
      const dashboardId = `hosted-${path.includes('dataApp') ? 'legacy' : 'preferred'}`
      const embedded = await a.call('POST', path, a.dataAppKey, {
        dashboardId,
        workspaceName: 'main',
        clientId: 'acme',
        importDashboardData: hostedExport(),
        accessSettings: ACCESS,
      })
      expect(embedded.json(), embedded.body).toMatchObject({ id: dashboardId, warnings: HOSTED_WARNINGS })
      check(await exported(dashboardId))
    }
  })

  it('reads a kept part strictly: a kept metric the model cannot run is still a 400', async () => {
    const doc = hostedExport()
    const broken = {
      ...doc,
      metrics: [
        {
          ...doc.metrics[0],
          query: { from: `${wh.schema}.orders`, measures: [{ name: 'x', aggregate: 'sum', column: 'amont' }] },
        },
      ],
    }
    expectError(
      await importing({ workspaceName: 'main', dashboardId: 'broken', importDashboardData: broken }),
      400,
      'INVALID_REQUEST_BODY',
      /importDashboardData\.metrics\[0\]\.query\.measures\[0\]\.column/,
    )
  })

  it("keeps Strata's own export exact and strict: no warnings, an unknown field inside still refused", async () => {
    const own = await exported('sales-overview')
    const res = await importing({ workspaceName: 'main', dashboardId: 'round-trip', importDashboardData: own })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().data).not.toHaveProperty('warnings')
    expect(await exported('round-trip')).toEqual(own)
    // a misspelt restriction in Strata's own document is an error, never a warning
    const misspelt = { ...own, metrics: [{ ...own.metrics[0], rsl: [] }, ...own.metrics.slice(1)] }
    expectError(
      await importing({ workspaceName: 'main', dashboardId: 'misspelt', importDashboardData: misspelt }),
      400,
      'INVALID_REQUEST_BODY',
      /rsl/,
    )
  })
})
