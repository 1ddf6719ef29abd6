import { Type } from '@fastify/type-provider-typebox'

export const LiveResponse = Type.Object({ status: Type.Literal('live') })

const Check = Type.Object({
  status: Type.Union([Type.Literal('UP'), Type.Literal('DOWN'), Type.Literal('UNKNOWN')]),
  statusCode: Type.Optional(Type.Integer()),
  error: Type.Optional(Type.String()),
})

export const ReadyResponse = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  checks: Type.Record(Type.String(), Check),
})
