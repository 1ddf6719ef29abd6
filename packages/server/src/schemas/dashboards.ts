import { Type } from '@fastify/type-provider-typebox'
import { BooleanString, PageNumberString } from './common.js'
import { SchemaPairs } from './embeds.js'

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
  { additionalProperties: false },
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

export const ExportDashboardBody = Type.Object({ dashboardId: Id, workspaceName: Id }, { additionalProperties: false })
export const DashboardExport = Type.Object({
  _meta: Type.Object({ exportedAt: Type.String(), workspaceName: Type.String(), dashboardId: Type.String() }),
  data: Type.Record(Type.String(), Type.Unknown()),
})

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
  }),
})

/** DESIGN.md §2.12: the import's body with the id of the dashboard to replace required. */
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
    metrics: Type.Array(
      Type.Object({
        metricId: Type.String(),
        valid: Type.Boolean(),
        error: Type.Optional(Type.String({ description: "The compiler's or the warehouse's reason" })),
      }),
    ),
  }),
})
