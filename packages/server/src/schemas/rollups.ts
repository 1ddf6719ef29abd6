import { Type } from '@fastify/type-provider-typebox'
import { RollupStatusSchema } from '@strata/contract/rollups'

/** One rollup's state (docs/rollups.md#observing): the shape the studio reads too. */
export { type RollupStatus, RollupStatusSchema } from '@strata/contract/rollups'

/** Only one dashboard's rollups: both parameters, or neither (the organization's). */
export const RollupListQuery = Type.Object(
  {
    workspaceName: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'With dashboardId' })),
    dashboardId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'The external dashboard id; with workspaceName' }),
    ),
  },
  { additionalProperties: false },
)

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
