import { type TSchema, Type } from '@fastify/type-provider-typebox'
import { BooleanString, PageNumberString } from './common.js'
import { READ_ONLY_ACCESS } from './read-only-access.js'

const Id = Type.String({ minLength: 1, maxLength: 200 })

/** What an import left out of a document the hosted service exported (docs/dashboard-document.md). */
export const ImportWarnings = Type.Immutable(
  Type.Array(Type.String(), {
    description:
      "Present when the document was read as the hosted service's export and parts of it have no place in Strata's dashboard document: each part left out, as `path: why`",
  }),
)
const TableColumns = Type.Array(
  Type.Object({ tableName: Id, columns: Type.Array(Id, { maxItems: 1000 }) }, { additionalProperties: false }),
  { maxItems: 1000 },
)

/** accessSettings fields with their create-time requiredness (docs/api.md#embeds). */
const accessFields = {
  datamartName: Id,
  isAllowAiPilot: Type.Boolean(),
  isAllowEmailReports: Type.Boolean(),
  isAllowManageMetrics: Type.Boolean(),
  isAllowCreateDashboardView: Type.Boolean(),
  isAllowEndUserDashboardFilter: Type.Boolean(),
  dashboardFilterColumns: TableColumns,
  isAllowMetricCreation: Type.Boolean(),
  isAllowMetricDeletion: Type.Boolean(),
  isAllowMetricLayoutChange: Type.Boolean(),
  isAllowMetricUpdate: Type.Boolean(),
  isAllowUnderlyingData: Type.Boolean(),
  joinModel: Type.Union([Type.Literal('single'), Type.Literal('multi')]),
  isIncrementalJoin: Type.Boolean(),
  metricCreationMode: Type.Union([Type.Literal('DRAG_DROP'), Type.Literal('CHAT')]),
  tableTenancySettings: Type.Array(Type.Object({ name: Id, clientColumn: Id }, { additionalProperties: false }), {
    maxItems: 1000,
  }),
}
type AccessField = keyof typeof accessFields

// every read-only field is an accessSettings field of the right type (READ_ONLY_ACCESS has a module of
// its own so that the CLI imports it without TypeBox): another name is a `never` key, and fails here
READ_ONLY_ACCESS satisfies Partial<Record<AccessField, unknown>> &
  Record<Exclude<keyof typeof READ_ONLY_ACCESS, AccessField>, never>

export { READ_ONLY_ACCESS }

/** Required inside accessSettings on create (datamartName only for dashboard embeds). */
export const REQUIRED_ON_CREATE = Object.keys(READ_ONLY_ACCESS) as readonly (keyof typeof READ_ONLY_ACCESS)[]

/** Every field optional, no other field allowed (Type.Partial would drop additionalProperties). */
function partial<T extends Record<string, TSchema>>(fields: T) {
  const optional = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>>
  }
  return Type.Object(optional, { additionalProperties: false })
}

/** Every field optional: create-time requiredness is checked by the service (it depends on embedType). */
export const AccessSettings = partial(accessFields)

const EmbedName = Type.String({ minLength: 1, maxLength: 200, description: 'Defaults to the embed id' })

export const CreateEmbedBody = Type.Object(
  {
    dashboardId: Id,
    embedType: Type.Union([Type.Literal('dashboard'), Type.Literal('metric')]),
    metricId: Type.Optional(Id),
    workspaceName: Id,
    name: Type.Optional(EmbedName),
    accessSettings: Type.Optional(AccessSettings),
  },
  { additionalProperties: false },
)

/** accessSettings with `required` required and every other field optional. */
function accessSettingsRequiring(required: readonly AccessField[], description: string) {
  const fields = Object.fromEntries(
    Object.entries(accessFields).map(([k, v]) => [k, required.includes(k as AccessField) ? v : Type.Optional(v)]),
  ) as unknown as Record<AccessField, TSchema>
  return Type.Object(fields, { additionalProperties: false, description })
}

/** A complete accessSettings: every field, the required ones included. */
export const EXAMPLE_ACCESS_SETTINGS = {
  datamartName: 'sales',
  ...READ_ONLY_ACCESS,
  isAllowAiPilot: false,
  isAllowEndUserDashboardFilter: true,
  dashboardFilterColumns: [{ tableName: 'public.orders', columns: ['country', 'status'] }],
  isAllowUnderlyingData: true,
  joinModel: 'single',
  tableTenancySettings: [{ name: 'public.orders', clientColumn: 'tenant' }],
} as const

const dashboardEmbed = {
  dashboardId: 'sales-overview',
  embedType: 'dashboard',
  workspaceName: 'main',
  name: 'Sales overview',
  accessSettings: EXAMPLE_ACCESS_SETTINGS,
} as const
const metricEmbed = {
  dashboardId: 'sales-overview',
  embedType: 'metric',
  metricId: 'revenue',
  workspaceName: 'main',
  name: 'Revenue',
  accessSettings: { ...READ_ONLY_ACCESS },
} as const

/** Named examples (the document only: no route validates these schemas). */
const namedEmbedExamples = {
  dashboard: { summary: 'A dashboard embed, with its full accessSettings', value: dashboardEmbed },
  metric: { summary: 'An embed of one metric', value: metricEmbed },
}

/**
 * For `/openapi.json` only: the create body per embedType, with the accessSettings fields the
 * service requires on create (the route validates CreateEmbedBody; the service checks these and
 * answers a 400 naming the missing field).
 */
export const CreateEmbedRequest = Type.Union(
  [
    Type.Object(
      {
        dashboardId: Id,
        embedType: Type.Literal('dashboard'),
        workspaceName: Id,
        name: Type.Optional(EmbedName),
        accessSettings: accessSettingsRequiring(
          ['datamartName', ...REQUIRED_ON_CREATE],
          'Required for a dashboard embed, with datamartName and every permission flag.',
        ),
      },
      { additionalProperties: false, title: 'Dashboard embed' },
    ),
    Type.Object(
      {
        dashboardId: Id,
        embedType: Type.Literal('metric'),
        metricId: Id,
        workspaceName: Id,
        name: Type.Optional(EmbedName),
        accessSettings: Type.Optional(
          accessSettingsRequiring(
            REQUIRED_ON_CREATE,
            'Optional for a metric embed; when given, every permission flag.',
          ),
        ),
      },
      { additionalProperties: false, title: 'Metric embed' },
    ),
  ],
  { 'x-examples': namedEmbedExamples },
)

export const IdResponse = Type.Object({ id: Type.String(), error: Type.Null() })
export const DeleteResponse = Type.Object({ id: Type.String() })
export const LegacyDeleteResponse = Type.Object({ id: Type.String(), error: Type.Null() })

export const UpdateEmbedBody = Type.Object(
  {
    embedId: Id,
    accessSettings: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'The accessSettings fields to change (any subset); the others keep their values. Checked by the service: an unknown field or a wrong type is 400 INVALID_ACCESS_SETTINGS.',
      },
    ),
    workspaceName: Type.Optional(Id),
  },
  {
    additionalProperties: false,
    examples: [
      {
        embedId: 'emb_1f2e3d4c5b6a7988',
        accessSettings: { isAllowUnderlyingData: false, joinModel: 'multi' },
        workspaceName: 'main',
      },
    ],
  },
)

export const ListEmbedsQuery = Type.Object(
  {
    isPagination: Type.Optional(BooleanString),
    pageNumber: Type.Optional(PageNumberString),
    clientId: Type.Optional(Id),
  },
  { additionalProperties: false },
)
export const ListEmbedsBody = Type.Object(
  {
    isPagination: Type.Optional(Type.Boolean()),
    pageNumber: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
    clientId: Type.Optional(Id),
  },
  { additionalProperties: false, examples: [{ isPagination: true, pageNumber: 1, clientId: 'acme' }] },
)

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()])

export const EmbedItem = Type.Object({
  embedId: Type.String(),
  embedType: Type.Union([Type.Literal('dashboard'), Type.Literal('metric')]),
  name: Type.String(),
  externalDashboard: Nullable(
    Type.Object({
      externalDashboardId: Type.String(),
      metadata: Type.Object(
        { createdAt: Type.String(), updatedAt: Type.String() },
        {
          additionalProperties: true,
          description:
            "The dashboard's createdAt and updatedAt (ISO 8601), and the metadata given when it was created with its embed",
        },
      ),
      name: Type.String(),
    }),
  ),
  externalMetric: Nullable(Type.Object({ metricId: Type.String(), name: Type.String() })),
  embedMetadata: Type.Object({
    embedId: Type.String(),
    name: Type.String(),
    embedType: Type.String(),
    dataAppName: Type.String(),
    metricId: Nullable(Type.String({ description: 'The embedded metric; null for a dashboard embed' })),
    dashboardId: Nullable(Type.String({ description: 'The embedded dashboard; null for a metric embed' })),
    embedDescription: Nullable(Type.String({ description: 'The embedDescription given when it was created' })),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  }),
})
/** One embed's access settings as stored (the studio's settings form reads them). */
export const EmbedAccessQuery = Type.Object({ embedId: Id }, { additionalProperties: false })
export const EmbedAccessResponse = Type.Object({
  data: Type.Object({ embedId: Type.String(), accessSettings: AccessSettings }),
})
export const EmbedList = Type.Object({ data: Type.Array(EmbedItem), error: Type.Null() })

export const DeleteEmbedQuery = Type.Object(
  { embedId: Id, isDeleteDashboard: Type.Optional(BooleanString) },
  { additionalProperties: false },
)
export const LegacyDeleteEmbedQuery = Type.Object(
  { embedId: Type.Optional(Id), isDeleteDashboard: Type.Optional(BooleanString) },
  { additionalProperties: false },
)
export const LegacyDeleteEmbedBody = Type.Object(
  { embedId: Id, isDeleteDashboard: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, title: 'Delete an embed (legacy form)' },
)

/** The older legacy delete (`POST /api/v2/dataApp/embed/delete`): the embed id in the body or the query string. */
export const OlderLegacyDeleteEmbedBody = Type.Object(
  { embedId: Type.Optional(Id), isDeleteDashboard: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, examples: [{ embedId: 'emb_802972233ba2f71d' }] },
)

/** For `/openapi.json`: the preferred create path, which also takes the legacy delete body. */
export const CreateOrDeleteEmbedRequest = Type.Union([...CreateEmbedRequest.anyOf, LegacyDeleteEmbedBody], {
  'x-examples': namedEmbedExamples,
})

export const RenameEmbedBody = Type.Object(
  {
    embedId: Id,
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    isRenameDashboard: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    examples: [{ embedId: 'emb_1f2e3d4c5b6a7988', name: 'Sales (EMEA)', isRenameDashboard: true }],
  },
)
export const RenameResponse = Type.Object({ id: Type.String(), name: Type.String(), error: Type.Null() })

export const ExportEmbedQuery = Type.Object({ embedId: Id }, { additionalProperties: false })
export const ExportEmbedBody = Type.Object(
  { embedId: Id },
  { additionalProperties: false, examples: [{ embedId: 'emb_1f2e3d4c5b6a7988' }] },
)

const EmbedExportMeta = Type.Object({
  exportedAt: Type.String(),
  embedId: Type.String(),
  name: Type.String(),
  embedType: Type.String(),
  dashboardId: Type.String(),
  embedDataAppAccessSetting: Type.Record(Type.String(), Type.Unknown()),
})
export const EmbedExport = Type.Object({ _meta: EmbedExportMeta, data: Type.Record(Type.String(), Type.Unknown()) })
/** For `/openapi.json`: the exported document is the named DashboardDocument schema. */
export const EmbedExportDocument = Type.Object({ _meta: EmbedExportMeta, data: Type.Ref('DashboardDocument') })

export const SchemaPairs = Type.Array(
  Type.Object({ replaceSchema: Id, targetSchema: Id }, { additionalProperties: false }),
  { maxItems: 100 },
)

const emptyDashboardEmbedFields = {
  dashboardId: Id,
  workspaceName: Id,
  clientId: Id,
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  isRenameDashboard: Type.Optional(Type.Boolean()),
  importDashboardData: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  schemaPairs: Type.Optional(SchemaPairs),
  accessSettings: AccessSettings,
  templateDashboardId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        "A dashboard of the workspace whose filters, layout and metrics the new dashboard starts with (importDashboardData's own win)",
    }),
  ),
  metadata: Type.Optional(
    Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.Unknown(), {
      maxProperties: 50,
      description:
        "The dashboard's metadata (at most 10,000 characters of JSON; not createdAt or updatedAt): the embeds list shows it",
    }),
  ),
  embedDescription: Type.Optional(
    Type.String({ maxLength: 1000, description: 'Stored with the embed; the embeds list shows it' }),
  ),
  isAllowPrivateMetricsByDefault: Type.Optional(
    Type.Boolean({ description: "The new dashboard document's isAllowPrivateMetricsByDefault" }),
  ),
  isImportMetrics: Type.Optional(
    Type.Boolean({
      description:
        'false: the new dashboard gets no metrics (nor a layout) from the template or the document. Default true',
    }),
  ),
  metricImportMode: Type.Optional(
    Type.Literal('GALLERY', {
      description: "The one mode: copied metrics are the new dashboard's own, listed by the metrics list",
    }),
  ),
}
export const EmptyDashboardEmbedBody = Type.Object(emptyDashboardEmbedFields, { additionalProperties: false })

/** For `/openapi.json`: the document is the named DashboardDocument schema, accessSettings as required on create. */
export const EmptyDashboardEmbedRequest = Type.Object(
  {
    ...emptyDashboardEmbedFields,
    importDashboardData: Type.Optional(Type.Ref('DashboardDocument')),
    accessSettings: accessSettingsRequiring(
      ['datamartName', ...REQUIRED_ON_CREATE],
      'With datamartName and every permission flag, as for a dashboard embed.',
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        dashboardId: 'acme-sales',
        workspaceName: 'main',
        clientId: 'acme',
        name: 'Acme sales',
        isRenameDashboard: true,
        accessSettings: EXAMPLE_ACCESS_SETTINGS,
      },
      {
        dashboardId: 'acme-sales',
        workspaceName: 'main',
        clientId: 'acme',
        templateDashboardId: 'sales-overview',
        metadata: { clientName: 'Acme Corporation', region: 'EMEA' },
        name: 'Acme sales',
        embedDescription: 'Sales for Acme',
        isAllowPrivateMetricsByDefault: true,
        isImportMetrics: true,
        metricImportMode: 'GALLERY',
        accessSettings: EXAMPLE_ACCESS_SETTINGS,
      },
    ],
  },
)
export const EmptyDashboardEmbedResponse = Type.Object({
  id: Type.String({ description: 'The new dashboard id (dashboardId)' }),
  name: Type.String({ description: 'The name of the embed' }),
  embedId: Type.String({ description: 'The new embed id' }),
  error: Type.Null(),
  warnings: Type.Optional(ImportWarnings),
})
