import type { FastifyReply } from 'fastify'

/** Set on a metric result cut at QUERY_ROW_LIMIT (the spec's body has no field for it). */
export const TRUNCATED_HEADER = 'strata-truncated'

/** Answers a metric result, saying in a header when its rows were cut at the row cap. */
export function sendResult<T extends { readonly truncated?: true }>(reply: FastifyReply, result: T): T {
  if (result.truncated) reply.header(TRUNCATED_HEADER, 'true')
  return result
}
