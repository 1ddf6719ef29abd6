/**
 * The JSON request a MongoDB statement is (query/dialects/mongodb/request.ts) → the aggregate
 * to run. `{"$param": i}` objects become `params[i]` as BSON values (a Date stays a BSON date,
 * a bigint a Long; strings, numbers, booleans and null as they are); values are never parsed
 * or spliced into text, and an object or array value is refused, so a value cannot become an
 * operator. `{"$session": "timezone"}` becomes the session time zone.
 */
import { Long } from 'mongodb'
import { PARAM_KEY, SESSION_KEY } from '../../query/dialects/mongodb/request.js'
import { parseJsonText } from '../../validation/json-text.js'
import { queryError } from '../errors.js'

export interface Aggregate {
  readonly database: string | undefined
  readonly collection: string
  readonly pipeline: Record<string, unknown>[]
  readonly columns: readonly string[] | undefined
}

export function parseRequest(text: string, params: readonly unknown[], timeZone: string): Aggregate {
  // the one parser of outside JSON: bounded depth, so binding the pipeline cannot recurse too far
  const parsed = parseJsonText(text)
  if ('fault' in parsed) {
    throw queryError(
      `a MongoDB statement is one aggregation request in JSON ({ collection, pipeline }); it ${parsed.fault.problem}`,
    )
  }
  const r = parsed.value as { database?: unknown; collection?: unknown; pipeline?: unknown; columns?: unknown }
  if (
    typeof r !== 'object' ||
    r === null ||
    typeof r.collection !== 'string' ||
    !Array.isArray(r.pipeline) ||
    (r.database !== undefined && typeof r.database !== 'string') ||
    (r.columns !== undefined && !(Array.isArray(r.columns) && r.columns.every((c) => typeof c === 'string')))
  ) {
    throw queryError('a MongoDB statement is one aggregation request in JSON ({ collection, pipeline })')
  }
  return {
    database: r.database as string | undefined,
    collection: r.collection,
    pipeline: bind(r.pipeline, params, timeZone) as Record<string, unknown>[],
    columns: r.columns as string[] | undefined,
  }
}

function bind(node: unknown, params: readonly unknown[], timeZone: string): unknown {
  if (Array.isArray(node)) return node.map((n) => bind(n, params, timeZone))
  if (node === null || typeof node !== 'object') return node
  const entries = Object.entries(node as Record<string, unknown>)
  const [first] = entries
  if (entries.length === 1 && first?.[0] === PARAM_KEY) return value(first[1], params)
  if (entries.length === 1 && first?.[0] === SESSION_KEY && first[1] === 'timezone') return timeZone
  const out: Record<string, unknown> = {}
  for (const [k, v] of entries) {
    if (k === PARAM_KEY || k === SESSION_KEY) throw queryError(`a malformed ${k} reference`)
    out[k] = bind(v, params, timeZone)
  }
  return out
}

function value(index: unknown, params: readonly unknown[]): unknown {
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0 || index >= params.length) {
    throw queryError(`no parameter ${String(index)} (${params.length} given)`)
  }
  const v = params[index]
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v
  if (typeof v === 'number' && Number.isFinite(v)) return v
  if (typeof v === 'bigint') return Long.fromBigInt(v)
  if (v instanceof Date && !Number.isNaN(v.getTime())) return v
  throw queryError(`parameter ${index}: only strings, finite numbers, booleans, null and dates can be bound`)
}
