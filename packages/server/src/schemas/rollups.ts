import { type Static, Type } from '@fastify/type-provider-typebox'

/** One rollup's state (docs/rollups.md#observing). */
export const RollupStatusSchema = Type.Object({
  workspaceName: Type.String(),
  /** The external dashboard id */
  dashboardId: Type.String(),
  name: Type.String(),
  state: Type.Union([Type.Literal('building'), Type.Literal('ready'), Type.Literal('failed'), Type.Literal('stale')], {
    description:
      'building: a build runs; ready: the files match the definition; failed: the last build failed (lastError says why); stale: never built, or the definition changed since',
  }),
  rows: Type.Integer({ description: 'Rows in the files' }),
  bytes: Type.Integer({ description: 'Bytes of the files' }),
  partitions: Type.Integer({ description: 'Files (time partitions, per tenant database with DATABASE tenancy)' }),
  lastRefreshAt: Type.Union([Type.String(), Type.Null()], { description: 'When the last build ended (ISO)' }),
  nextRefreshAt: Type.Union([Type.String(), Type.Null()], {
    description: 'When the next build is due (ISO); null: not scheduled until the definition changes',
  }),
  lagSeconds: Type.Union([Type.Integer(), Type.Null()], {
    description: 'How old the data in the files is: seconds since the last successful build started',
  }),
  lastError: Type.Union([Type.String(), Type.Null()]),
})

export type RollupStatus = Static<typeof RollupStatusSchema>

export const RollupList = Type.Object({ data: Type.Array(RollupStatusSchema) })

export const RollupRefreshBody = Type.Object(
  {
    workspaceName: Type.String({ minLength: 1, maxLength: 200 }),
    dashboardId: Type.String({ minLength: 1, maxLength: 200 }),
    rollup: Type.Optional(
      Type.String({ minLength: 1, maxLength: 63, description: 'Only this rollup (default: all of the dashboard)' }),
    ),
  },
  {
    additionalProperties: false,
    'x-examples': {
      dashboard: { summary: "All of a dashboard's rollups", value: { workspaceName: 'main', dashboardId: 'sales' } },
      one: { summary: 'One rollup', value: { workspaceName: 'main', dashboardId: 'sales', rollup: 'orders_daily' } },
    },
  },
)

export const RollupRefreshResponse = Type.Object({
  data: Type.Array(RollupStatusSchema, {
    description: 'The state of each rollup now due; the build runs in the background',
  }),
})
