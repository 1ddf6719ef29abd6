import type { FastifyReply } from 'fastify'
import type { MetricResult } from '../services/query/metric-queries.js'

/** Set on a metric result cut at QUERY_ROW_LIMIT (the result's body has no field for it). */
export const TRUNCATED_HEADER = 'strata-truncated'

/** Says in a header when a result's rows were cut at the row cap. */
export function markTruncated(reply: FastifyReply, result: { readonly truncated?: true }): void {
  if (result.truncated) reply.header(TRUNCATED_HEADER, 'true')
}

/**
 * Answers a metric result as JSON text written here: a cached result's rows are the same array
 * on every hit, so the text around `timeTaken` (the rows, then the count, columns, metric id and
 * comparison) is written once per result set and reused while those fields are the same (the
 * route's response schema still documents the body; Fastify sends JSON text as it is). The text
 * is what the schema's serialiser writes for the same result, field for field in its order
 * (optional fields last, metric-result.test.ts compares them); `truncated` is a header, never
 * a field.
 */
export function sendResult(reply: FastifyReply, result: MetricResult): FastifyReply {
  markTruncated(reply, result)
  const { head, tail } = textsOf(result)
  return reply.type('application/json; charset=utf-8').send(head + number(result.timeTaken) + tail)
}

interface Texts {
  /** The result they were written for (its fields other than timeTaken decide `tail`). */
  readonly of: MetricResult
  readonly head: string
  readonly tail: string
}
const texts = new WeakMap<readonly Record<string, unknown>[], Texts>()
function textsOf(result: MetricResult): Texts {
  const known = texts.get(result.data)
  if (known && sameTail(known.of, result)) return known
  const comparison = result.comparisonValue === undefined ? '' : `,"comparisonValue":${number(result.comparisonValue)}`
  const written: Texts = {
    of: result,
    head: known?.head ?? `{"data":${JSON.stringify(result.data)},"timeTaken":`,
    tail: `,"totalRecords":${number(result.totalRecords)},"metaData":${JSON.stringify({ columns: result.metaData.columns.map(({ name, dataType }) => ({ name, dataType })), groupbyColumnList: result.metaData.groupbyColumnList })},"metricid":${JSON.stringify(result.metricid)},"error":null,"servedFrom":${JSON.stringify(result.servedFrom)}${comparison}}`,
  }
  texts.set(result.data, written)
  return written
}

/** Whether two results of the same rows are written alike after timeTaken (their columns and group-by lists are shared objects). */
const sameTail = (a: MetricResult, b: MetricResult): boolean =>
  a.totalRecords === b.totalRecords &&
  a.metricid === b.metricid &&
  a.comparisonValue === b.comparisonValue &&
  a.servedFrom === b.servedFrom &&
  a.metaData.columns === b.metaData.columns &&
  a.metaData.groupbyColumnList === b.metaData.groupbyColumnList

/** A number as JSON writes it; not finite (never from a driver, but defined): null. */
const number = (n: number): string => (Number.isFinite(n) ? String(n) : 'null')
