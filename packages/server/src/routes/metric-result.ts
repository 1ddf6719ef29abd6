import type { FastifyReply } from 'fastify'
import type { MetricResult } from '../services/query/metric-queries.js'

/** Set on a metric result cut at QUERY_ROW_LIMIT (the spec's body has no field for it). */
export const TRUNCATED_HEADER = 'strata-truncated'

/** Says in a header when a result's rows were cut at the row cap. */
export function markTruncated(reply: FastifyReply, result: { readonly truncated?: true }): void {
  if (result.truncated) reply.header(TRUNCATED_HEADER, 'true')
}

/**
 * Answers a metric result as JSON text written here, with the rows' part serialised once per
 * result set: a cached result's rows are the same array on every hit, so a hit does not walk
 * them again (the route's response schema still documents the body; Fastify sends JSON text as
 * it is). The text is what the schema's serialiser writes for the same result, field for field
 * in its order (optional fields last, metric-result.test.ts compares them); `truncated` is a header, never
 * a field.
 */
export function sendResult(reply: FastifyReply, result: MetricResult): FastifyReply {
  markTruncated(reply, result)
  const comparison = result.comparisonValue === undefined ? '' : `,"comparisonValue":${number(result.comparisonValue)}`
  return reply
    .type('application/json; charset=utf-8')
    .send(
      `{"data":${rowsJson(result.data)},"timeTaken":${number(result.timeTaken)},"totalRecords":${number(result.totalRecords)},"metaData":${JSON.stringify({ columns: result.metaData.columns.map(({ name, dataType }) => ({ name, dataType })), groupbyColumnList: result.metaData.groupbyColumnList })},"metricid":${JSON.stringify(result.metricid)},"error":null${comparison}}`,
    )
}

const rowsTexts = new WeakMap<readonly Record<string, unknown>[], string>()
function rowsJson(rows: readonly Record<string, unknown>[]): string {
  let text = rowsTexts.get(rows)
  if (text === undefined) {
    text = JSON.stringify(rows)
    rowsTexts.set(rows, text)
  }
  return text
}

/** A number as JSON writes it; not finite (never from a driver, but defined): null. */
const number = (n: number): string => (Number.isFinite(n) ? String(n) : 'null')
