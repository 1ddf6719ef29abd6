/**
 * `ExecuteOptions.params` → BigQuery named query parameters `@p0…@pn` with explicit types
 * (https://cloud.google.com/bigquery/docs/parameterized-queries): the SDK sends each as a typed
 * `QueryParameter`, so values never enter the SQL text. Types are given, not inferred by the
 * SDK, so that a null is typed (the SDK cannot infer one) and every value's type is ours.
 */
import { badRequest } from '../../errors.js'

/** A GoogleSQL type as the SDK's `types` option names it: a scalar name, or [element] for an ARRAY. */
export type ParamType = string | readonly [string]

export interface BoundParams {
  readonly params: Record<string, unknown>
  readonly types: Record<string, ParamType>
}

/** The GoogleSQL type of one scalar value (null: STRING, compatible with any comparison after coercion rules). */
export function scalarType(value: unknown): string {
  if (value === null || value === undefined) return 'STRING'
  if (typeof value === 'string') return 'STRING'
  if (typeof value === 'bigint') return 'INT64'
  if (typeof value === 'number') return Number.isSafeInteger(value) ? 'INT64' : 'FLOAT64'
  if (typeof value === 'boolean') return 'BOOL'
  if (value instanceof Date) return 'TIMESTAMP'
  throw badRequest('A value must be a string, number, boolean, date or list')
}

export function paramType(value: unknown): ParamType {
  if (!Array.isArray(value)) return scalarType(value)
  const types = new Set(value.map(scalarType))
  if (types.size > 1 && [...types].every((t) => t === 'INT64' || t === 'FLOAT64')) return ['FLOAT64']
  if (types.size > 1) throw badRequest('A list value must not mix types')
  return [[...types][0] ?? 'STRING']
}

/** Bigints as decimal text (the SDK takes INT64 values as strings); nulls stay null. */
function wireValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return value.map(wireValue)
  return value === undefined ? null : value
}

export function bindParams(values: readonly unknown[]): BoundParams {
  const params: Record<string, unknown> = {}
  const types: Record<string, ParamType> = {}
  values.forEach((value, i) => {
    params[`p${i}`] = wireValue(value)
    types[`p${i}`] = paramType(value)
  })
  return { params, types }
}
