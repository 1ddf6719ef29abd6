/**
 * The stand-in's evaluator: the query DSL and aggregation subset the `elasticsearch` dialect
 * compiles, translated to MongoDB query language and run by `mingo` (an in-memory MongoDB
 * query/aggregation implementation) over the index's documents. Documents are stored flattened
 * (one key per mapped field, dates as epoch milliseconds), so dotted field paths and keyword
 * sub-fields need no object walking. What is outside the subset is a 400 with the engine's error
 * shape, as a cluster answers a request it cannot parse.
 */
import { Aggregator, Query } from 'mingo'

export interface Field {
  readonly key: string
  readonly type: string
  /** A text field: not aggregatable (the engine refuses fielddata on text). */
  readonly text: boolean
}

export class DslError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message)
  }
}

type Json = Record<string, unknown>
const obj = (v: unknown, where: string): Json => {
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new DslError('parsing_exception', `[${where}] expects an object`)
  return v as Json
}
const only = (v: unknown, where: string): [string, unknown] => {
  const entries = Object.entries(obj(v, where))
  if (entries.length !== 1)
    throw new DslError('parsing_exception', `[${where}] query malformed, must have exactly one field`)
  return entries[0] as [string, unknown]
}

/** Epoch ms of a date value, given a zone for texts without an offset. */
export function parseDate(v: unknown, zone = 'UTC'): number {
  if (typeof v === 'number') return v
  if (typeof v !== 'string') throw new DslError('parse_exception', `failed to parse date field [${String(v)}]`)
  if (/^-?\d{10,}$/.test(v)) return Number(v)
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(v)
  if (!m) throw new DslError('parse_exception', `failed to parse date field [${v}]`)
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '0', off] = m
  const wall = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s),
    Number(frac.slice(0, 3).padEnd(3, '0')),
  )
  if (off !== undefined) {
    if (off === 'Z') return wall
    const sign = off[0] === '-' ? -1 : 1
    const digits = off.slice(1).replace(':', '')
    return wall - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000
  }
  return fromWall(wall, zone)
}

/** Offset of `zone` at an instant, in ms (Intl). */
export function offsetMs(zone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(at))
  const p: Record<string, number> = {}
  for (const x of parts) p[x.type] = Number(x.value)
  const asUtc = Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0)
  return asUtc - Math.floor(at / 1000) * 1000
}

/** The instant whose wall-clock time in `zone` is `wall` (given as if UTC). */
function fromWall(wall: number, zone: string): number {
  let t = wall - offsetMs(zone, wall)
  t = wall - offsetMs(zone, t)
  return t
}

/** The start of the calendar bucket (`calendar_interval`) holding `ms`, in `zone`. */
export function bucketStart(ms: number, interval: string, zone: string): number {
  const wall = new Date(ms + offsetMs(zone, ms))
  const y = wall.getUTCFullYear()
  const mo = wall.getUTCMonth()
  const d = wall.getUTCDate()
  let start: number
  switch (interval) {
    case 'hour':
    case '1h':
      start = Date.UTC(y, mo, d, wall.getUTCHours())
      break
    case 'day':
    case '1d':
      start = Date.UTC(y, mo, d)
      break
    case 'week':
    case '1w':
      start = Date.UTC(y, mo, d) - ((wall.getUTCDay() + 6) % 7) * 86_400_000
      break
    case 'month':
    case '1M':
      start = Date.UTC(y, mo, 1)
      break
    case 'quarter':
    case '1q':
      start = Date.UTC(y, Math.floor(mo / 3) * 3, 1)
      break
    case 'year':
    case '1y':
      start = Date.UTC(y, 0, 1)
      break
    default:
      throw new DslError(
        'illegal_argument_exception',
        `The supplied interval [${interval}] could not be parsed as a calendar interval.`,
      )
  }
  return fromWall(start, zone)
}

const regexOfWildcard = (pattern: string): string => {
  let out = '^'
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string
    if (c === '\\') out += (pattern[++i] ?? '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
    else if (c === '*') out += '.*'
    else if (c === '?') out += '.'
    else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  }
  return `${out}$`
}

/** Query DSL → a mingo criteria object. */
export class Translator {
  constructor(private readonly fields: ReadonlyMap<string, Field>) {}

  field(name: string, exact: boolean): Field {
    const f = this.fields.get(name)
    if (f === undefined) return { key: `__unmapped_${name}`, type: 'unmapped', text: false }
    if (exact && f.text) {
      throw new DslError(
        'illegal_argument_exception',
        `Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${name}] in order to load field data by uninverting the inverted index.`,
      )
    }
    return f
  }

  private value(f: Field, v: unknown, zone?: string): unknown {
    if (f.type === 'date') return parseDate(v, zone)
    if (f.type === 'boolean') return v === true || v === 'true'
    if (v !== null && typeof v === 'object') throw new DslError('parsing_exception', '[term] value must be a scalar')
    return v
  }

  query(q: unknown): Json {
    const [kind, body] = only(q, 'query')
    switch (kind) {
      case 'match_all':
        return {}
      case 'match_none':
        return { __none: { $exists: true, $eq: '__never' } }
      case 'term': {
        const [name, spec] = only(body, 'term')
        const f = this.field(name, false)
        const v = spec !== null && typeof spec === 'object' ? (spec as Json).value : spec
        return { [f.key]: { $eq: this.value(f, v) } }
      }
      case 'terms': {
        const [name, values] = only(body, 'terms')
        if (!Array.isArray(values)) throw new DslError('parsing_exception', '[terms] query requires an array of values')
        const f = this.field(name, false)
        return { [f.key]: { $in: values.map((v) => this.value(f, v)) } }
      }
      case 'range': {
        const [name, spec] = only(body, 'range')
        const f = this.field(name, false)
        const s = obj(spec, 'range')
        const zone = typeof s.time_zone === 'string' ? s.time_zone : undefined
        const ops: Json = {}
        for (const op of ['gt', 'gte', 'lt', 'lte'] as const) if (op in s) ops[`$${op}`] = this.value(f, s[op], zone)
        return { [f.key]: ops }
      }
      case 'exists': {
        const f = this.field(String(obj(body, 'exists').field), false)
        return { [f.key]: { $exists: true, $ne: null } }
      }
      case 'wildcard': {
        const [name, spec] = only(body, 'wildcard')
        const f = this.field(name, false)
        const s = obj(spec, 'wildcard')
        return {
          [f.key]: { $regex: regexOfWildcard(String(s.value)), $options: s.case_insensitive === true ? 'is' : 's' },
        }
      }
      case 'bool': {
        const b = obj(body, 'bool')
        const list = (k: string) => (Array.isArray(b[k]) ? (b[k] as unknown[]) : b[k] === undefined ? [] : [b[k]])
        const and = [...list('filter'), ...list('must')].map((x) => this.query(x))
        const should = list('should').map((x) => this.query(x))
        const nor = list('must_not').map((x) => this.query(x))
        const all: Json[] = [...and]
        if (should.length > 0) all.push({ $or: should })
        if (nor.length > 0) all.push({ $nor: nor })
        return all.length === 0 ? {} : { $and: all }
      }
      default:
        throw new DslError('parsing_exception', `unknown query [${kind}]`)
    }
  }
}

/** Documents matching a query (mingo). */
export function matching(docs: readonly Json[], criteria: Json): Json[] {
  return new Query(criteria).find(docs).all() as Json[]
}

/** A metric aggregation → a mingo $group accumulator over the field key. */
export function accumulator(kind: string, key: string): Json {
  const v = `$${key}`
  switch (kind) {
    case 'sum':
      return { $sum: v }
    case 'avg':
      return { $avg: v }
    case 'min':
      return { $min: v }
    case 'max':
      return { $max: v }
    case 'value_count':
      return { $sum: { $cond: [{ $eq: [{ $ifNull: [v, null] }, null] }, 0, 1] } }
    case 'cardinality':
      return { $addToSet: v }
    default:
      throw new DslError('parsing_exception', `Unknown aggregation type [${kind}]`)
  }
}

/** `$group` of documents by a computed key object (`_k`), with accumulators (mingo). */
export function grouped(docs: readonly Json[], accumulators: Json): Json[] {
  return new Aggregator([{ $group: { _id: '$_k', doc_count: { $sum: 1 }, ...accumulators } }]).run(
    docs as Json[],
  ) as Json[]
}
