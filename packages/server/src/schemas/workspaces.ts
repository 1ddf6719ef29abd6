import { Type } from '@fastify/type-provider-typebox'

export const ConnectionType = Type.Union([
  Type.Literal('DATASOURCE'),
  Type.Literal('DATAMART'),
  Type.Literal('MULTI_DATASOURCE'),
  Type.Literal('MULTI_DATAMART'),
])

/** The workspace request (create and update share it; docs/api.md#workspaces). */
export const WorkspaceBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    connectionType: ConnectionType,
    datasourceName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    datamartName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    llmName: Type.Optional(Type.String({ maxLength: 200 })),
    aiCopilotLlms: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 })),
    isEnableMetricSuggestions: Type.Optional(Type.Boolean()),
    isEnableMetricSummary: Type.Optional(Type.Boolean()),
    summaryType: Type.Optional(Type.String({ maxLength: 50 })),
    customSummaryPrompt: Type.Optional(Type.String({ maxLength: 10_000 })),
    themeName: Type.Optional(Type.String({ maxLength: 200 })),
  },
  {
    additionalProperties: false,
    'x-examples': {
      datamart: {
        summary: 'Dashboards over a datamart',
        value: { name: 'main', connectionType: 'DATAMART', datamartName: 'sales', themeName: 'default' },
      },
      datasource: {
        summary: 'Dashboards straight over a datasource',
        value: { name: 'raw', connectionType: 'DATASOURCE', datasourceName: 'warehouse' },
      },
    },
  },
)

export const WorkspaceResponse = Type.Object({
  data: Type.Object({ name: Type.String() }),
  error: Type.Null(),
})

/** docs/api.md#workspaces: the workspaces of the organization, oldest first. */
export const WorkspaceList = Type.Object({
  data: Type.Array(
    Type.Object({
      name: Type.String(),
      connectionType: ConnectionType,
      datasourceName: Type.Union([Type.String(), Type.Null()]),
      datamartName: Type.Union([Type.String(), Type.Null()]),
      createdAt: Type.String(),
    }),
  ),
})
export const DeleteWorkspaceQuery = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
)
export const DeletedWorkspace = Type.Object({ id: Type.String(), error: Type.Null() })

/** A workspace's dashboards: typed values in the body, as the hosted service's route takes them. */
export const WorkspaceDashboardsBody = Type.Object(
  {
    workspaceName: Type.String({ minLength: 1, maxLength: 200 }),
    isPagination: Type.Optional(Type.Boolean()),
    pageNumber: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  },
  { additionalProperties: false, examples: [{ workspaceName: 'main', isPagination: true, pageNumber: 1 }] },
)
export const WorkspaceDashboards = Type.Object({
  data: Type.Array(Type.Object({ name: Type.String(), externalDashboardId: Type.String() })),
  error: Type.Null(),
})
