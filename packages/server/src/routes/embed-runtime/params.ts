import { Type } from '@fastify/type-provider-typebox'

/** Path parameters of the runtime API (`:embedId` may also be a dashboard id of an embed). */
const Id = Type.String({ minLength: 1, maxLength: 200 })

export const EmbedParams = Type.Object({ embedId: Id })
export const MetricParams = Type.Object({ embedId: Id, metricId: Id })
export const ViewParams = Type.Object({ embedId: Id, viewId: Id })
