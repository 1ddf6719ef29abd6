import { Type } from '@fastify/type-provider-typebox'
import { BooleanString, PageNumberString } from './common.js'
import { ImportWarnings, SchemaPairs } from './embeds.js'

const Id = Type.String({ minLength: 1, maxLength: 200 })

export const DashboardListQuery = Type.Object(
  {
    isPagination: BooleanString,
    pageNumber: PageNumberString,
    dashboardNames: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  { additionalProperties: false },
)
export const DashboardListBody = Type.Object(
  {
    isPagination: Type.Optional(Type.Boolean()),
    pageNumber: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
    filters: Type.Optional(
      Type.Object(
        { dashboardNames: Type.Optional(Type.Array(Id, { maxItems: 1000 })) },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ isPagination: true, pageNumber: 1, filters: { dashboardNames: ['Sales overview'] } }],
  },
)
export const DashboardList = Type.Object({
  data: Type.Array(Type.Object({ name: Type.String(), externalDashboardId: Type.String(), embedId: Type.String() })),
})

export const MetricListQuery = Type.Object(
  {
    embedId: Id,
    clientId: Id,
    isPagination: Type.Optional(BooleanString),
    pageNumber: Type.Optional(PageNumberString),
    isMetric: Type.Optional(BooleanString),
    userIdentifier: Type.Optional(Id),
  },
  { additionalProperties: false },
)
/** The older legacy metrics list (`POST /api/v2/dataApp/metrics`): the query's fields, typed, in a body. */
export const MetricListBody = Type.Object(
  {
    embedId: Id,
    clientId: Id,
    isPagination: Type.Optional(Type.Boolean()),
    pageNumber: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
    isMetric: Type.Optional(Type.Boolean()),
    userIdentifier: Type.Optional(Id),
  },
  {
    additionalProperties: false,
    examples: [{ embedId: 'emb_802972233ba2f71d', clientId: 'acme', isPagination: true, pageNumber: 1 }],
  },
)
export const PublishMetricBody = Type.Object(
  { embedId: Id, metricId: Id, isPublished: Type.Boolean() },
  {
    additionalProperties: false,
    examples: [{ embedId: 'emb_802972233ba2f71d', metricId: 'u_3kF9xQ2mZp7A', isPublished: true }],
  },
)
export const PublishMetricResponse = Type.Object({ id: Type.String() })

export const MetricList = Type.Object({
  data: Type.Array(
    Type.Object({
      name: Type.String(),
      metricId: Type.String(),
      isPublished: Type.Boolean(),
      createdByUser: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
})

export const ExportDashboardBody = Type.Object(
  { dashboardId: Id, workspaceName: Id },
  { additionalProperties: false, examples: [{ dashboardId: 'sales-overview', workspaceName: 'main' }] },
)
const ExportMeta = Type.Object({ exportedAt: Type.String(), workspaceName: Type.String(), dashboardId: Type.String() })
export const DashboardExport = Type.Object({ _meta: ExportMeta, data: Type.Record(Type.String(), Type.Unknown()) })

export const ImportDashboardBody = Type.Object(
  {
    workspaceName: Id,
    importDashboardData: Type.Record(Type.String(), Type.Unknown()),
    dashboardId: Type.Optional(Id),
    dashboardName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    schemaPairs: Type.Optional(SchemaPairs),
  },
  { additionalProperties: false },
)
export const ImportDashboardResponse = Type.Object({
  data: Type.Object({
    response: Type.Object({
      message: Type.String(),
      dashboardId: Type.String(),
      dashboardName: Type.String(),
      workspaceName: Type.String(),
    }),
    warnings: Type.Optional(ImportWarnings),
  }),
})

/** The update's answer: the import's, and the end users' metrics the new version made invalid (dropped). */
export const UpdateDashboardResponse = Type.Object({
  data: Type.Object({
    response: ImportDashboardResponse.properties.data.properties.response,
    droppedEndUserMetrics: Type.Array(
      Type.Object({ metricId: Type.String(), clientId: Type.String(), reason: Type.String() }),
      {
        description:
          "End users' metrics (self-serve) that name a table, column or company metric the new version no longer has: dropped, one item each",
      },
    ),
    warnings: Type.Optional(ImportWarnings),
  }),
})

/** The import's body with the id of the dashboard to replace required. */
export const UpdateDashboardBody = Type.Object(
  {
    workspaceName: Id,
    dashboardId: Id,
    importDashboardData: Type.Record(Type.String(), Type.Unknown()),
    dashboardName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    schemaPairs: Type.Optional(SchemaPairs),
  },
  { additionalProperties: false },
)
export const DeleteDashboardQuery = Type.Object({ workspaceName: Id, dashboardId: Id }, { additionalProperties: false })
export const DeletedResponse = Type.Object({ id: Type.String(), error: Type.Null() })
export const ValidateDashboardResponse = Type.Object({
  data: Type.Object({
    valid: Type.Boolean({ description: 'Every metric compiled and ran (with no rows returned)' }),
    metrics: Type.Immutable(
      Type.Array(
        Type.Object({
          metricId: Type.String(),
          valid: Type.Boolean(),
          error: Type.Optional(Type.String({ description: "The compiler's or the warehouse's reason" })),
        }),
      ),
    ),
    warnings: Type.Optional(ImportWarnings),
  }),
})

/**
 * The dashboard routes validate `importDashboardData` as an object: the service checks it
 * against the document schema and the workspace's model, naming the path of the problem
 * (`importDashboardData.metrics[2].query.from: …`). `/openapi.json` shows these bodies instead,
 * whose document is the named DashboardDocument schema (@strata/contract, packages/contract/src/document.ts).
 */
export const DashboardDocumentRef = Type.Ref('DashboardDocument')

/** A complete, valid dashboard document: the examples of the import, update and validate bodies. */
export const EXAMPLE_DOCUMENT = {
  name: 'Sales overview',
  description: 'Revenue and orders by country and month',
  filters: [
    { name: 'country', label: 'Country', type: 'multi-select', table: 'public.orders', column: 'country' },
    {
      name: 'period',
      label: 'Period',
      type: 'date-range',
      table: 'public.orders',
      column: 'ordered_at',
      default: 'Last 90 days',
    },
  ],
  layout: [
    { metricId: 'revenue', x: 0, y: 0, w: 4, h: 2 },
    { metricId: 'revenue_by_country', x: 4, y: 0, w: 8, h: 4 },
  ],
  metrics: [
    {
      metricId: 'revenue',
      name: 'Revenue',
      chart: { type: 'single-value' },
      query: { from: 'public.orders', measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
      comparison: { period: 'previous-period' },
    },
    {
      metricId: 'revenue_by_country',
      name: 'Revenue by country',
      chart: { type: 'bar', x: 'country', y: ['revenue'] },
      query: {
        from: 'public.orders',
        measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
        dimensions: [{ name: 'country', column: 'country' }],
        orderBy: [{ name: 'revenue', direction: 'desc' }],
        limit: 10,
      },
      filters: [{ name: 'status', label: 'Order status', type: 'multi-select', column: 'status' }],
    },
  ],
}

const importExample = {
  workspaceName: 'main',
  importDashboardData: EXAMPLE_DOCUMENT,
  dashboardId: 'sales-overview',
  dashboardName: 'Sales overview',
  schemaPairs: [{ replaceSchema: 'staging', targetSchema: 'public' }],
}

export const ImportDashboardRequest = Type.Object(
  { ...ImportDashboardBody.properties, importDashboardData: DashboardDocumentRef },
  { additionalProperties: false, examples: [importExample] },
)
export const UpdateDashboardRequest = Type.Object(
  { ...UpdateDashboardBody.properties, importDashboardData: DashboardDocumentRef },
  { additionalProperties: false, examples: [importExample] },
)
export const DashboardExportDocument = Type.Object({ _meta: ExportMeta, data: DashboardDocumentRef })
