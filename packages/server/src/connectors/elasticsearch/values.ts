/**
 * Values of search answers → JSON-safe row values (shared/values.ts conventions): instants (a
 * date field's epoch milliseconds, or its _source text) as ISO 8601 in the session zone with its
 * offset; a converted column's as wall-clock time in its zone (no offset, as SQL engines give);
 * date-only fields and day-or-coarser buckets as `YYYY-MM-DD`; booleans from 1/0 keys.
 */
import type { Output } from '../../query/dialects/elasticsearch/statement.js'
import { formatInstant, jsonNumber } from '../shared/values.js'
import type { DataType } from '../types.js'
import type { FieldInfo } from './mapping.js'

export interface Zones {
  /** ExecuteOptions.timezone, else UTC. */
  readonly session: string
}

/** Epoch milliseconds of a date value: a number, or a date text (no offset: UTC). */
export function epochMs(v: unknown): number | undefined {
  if (typeof v === 'number') return v
  if (typeof v !== 'string') return undefined
  if (/^-?\d+$/.test(v)) return Number(v)
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?(Z|[+-]\d{2}:?\d{2})?$/.exec(v)
  if (!m) return undefined
  const ms = Date.parse(`${m[1]}T${m[2] ?? '00:00:00'}${m[3] ?? 'Z'}`)
  return Number.isNaN(ms) ? undefined : ms
}

/** The output's data type, from its aggregate, grain and field. */
export function dataTypeOf(o: Output, field: FieldInfo | undefined): DataType {
  if (o.from === 'doc_count' || o.from === 'total' || o.fn === 'count' || o.fn === 'count-distinct') return 'integer'
  if (o.fn === 'sum' || o.fn === 'avg') return 'number'
  if (o.grain !== undefined) return o.grain === 'hour' ? 'datetime' : 'date'
  return field?.dataType ?? 'unknown'
}

/** One value of an output column, typed by its field. */
export function rowValue(v: unknown, o: Output, field: FieldInfo | undefined, zones: Zones): unknown {
  if (v === null || v === undefined) return null
  const type = dataTypeOf(o, field)
  if ((type === 'datetime' || type === 'date') && o.fn !== 'count' && o.fn !== 'count-distinct') {
    const ms = epochMs(v)
    if (ms === undefined) return v
    // a converted column names its own zone (a string once substituted): wall-clock time there
    const converted = typeof o.zone === 'string' && o.grain === undefined
    const zone = typeof o.zone === 'string' ? o.zone : zones.session
    const iso = formatInstant(BigInt(Math.round(ms)) * 1000n, type === 'date' && o.grain === undefined ? 'UTC' : zone)
    if (type === 'date') return iso.slice(0, 10)
    return converted ? iso.replace(/([+-]\d{2}:\d{2}|Z)$/, '') : iso
  }
  if (type === 'boolean') return v === true || v === 1 || v === 'true'
  if (typeof v === 'number') return jsonNumber(v)
  return v
}

/** `a.b.c` in a `_source` document: a flat key first, then the object path. */
export function sourceValue(doc: Record<string, unknown>, path: string): unknown {
  if (path in doc) return doc[path]
  let cur: unknown = doc
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined
    cur = (cur as Record<string, unknown>)[part]
  }
  return cur
}
