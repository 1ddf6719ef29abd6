import type { Condition, FilterType } from '@strata/contract/document'
import { badRequest } from '../errors.js'
import {
  and,
  bool,
  cmp,
  contains,
  type Expr,
  inList,
  inSubquery,
  isNull,
  mappedParam,
  param,
  raw,
  sessionZonedParam,
} from './ast.js'
import { Bound, isPlainObject, plainValue, type Scalar, VALUE_LIMITS } from './bind.js'
import { matchPreset, presetWallRange, type WallRange } from './date-presets.js'
import type { Dialect } from './dialects/base.js'
import type { ModelColumn } from './model.js'
import { addDays, addMonths, dateString, fromWall, parseDate, toWall, type WallTime, wallString } from './zoned-time.js'

/** A column as it appears in a condition: its expression (converted to the zone or not). */
export interface Target {
  readonly expr: Expr
  readonly column: ModelColumn
  readonly converted: boolean
}

export interface Env {
  readonly dialect: Dialect
  readonly timezone: string
  readonly now: Date
}

const MAX_TEXT = 10_000

const isTemporal = (c: ModelColumn) => c.dataType === 'date' || c.dataType === 'datetime'

function scalar(v: unknown, where: string): Scalar | Bound {
  if (v instanceof Bound) return v // validated when the request was bound
  if (typeof v === 'string') {
    if (v.length > MAX_TEXT) throw badRequest(`${where}: a value is longer than ${MAX_TEXT} characters`)
    if (v.includes('\u0000')) throw badRequest(`${where}: a value must not contain a NUL character`)
    return v
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw badRequest(`${where}: a number must be finite`)
    return v
  }
  if (typeof v === 'boolean') return v
  throw badRequest(`${where}: expected a string, number or boolean`)
}

/** The calendar range a value names, if it is a date preset or `{ startDate, endDate }`. */
export function wallRangeOf(value: unknown, env: Env, where: string): WallRange | null | undefined {
  if (typeof value === 'string') {
    const preset = matchPreset(value)
    return preset === undefined ? undefined : presetWallRange(preset, toWall(env.now, env.timezone))
  }
  if (!isPlainObject(value) || !('startDate' in value || 'endDate' in value)) return undefined
  const keys = Object.keys(value).filter((k) => k !== 'startDate' && k !== 'endDate')
  if (keys.length > 0) throw badRequest(`${where}: unexpected field "${keys[0]}" in a date range`)
  const day = (k: 'startDate' | 'endDate'): WallTime | undefined => {
    const v = value[k]
    if (v === undefined || v === null || v === '') return undefined
    const d = typeof v === 'string' ? parseDate(v) : null
    if (d === null) throw badRequest(`${where}.${k}: expected a date YYYY-MM-DD`)
    return d
  }
  const start = day('startDate')
  const end = day('endDate')
  if (start === undefined && end === undefined) throw badRequest(`${where}: a date range needs startDate or endDate`)
  if (start !== undefined && end !== undefined && dateString(start) > dateString(end)) {
    throw badRequest(`${where}: startDate is after endDate`)
  }
  // The end date is inclusive: the range ends at the start of the next day.
  const far = { year: 9999, month: 1, day: 1, hour: 0, minute: 0, second: 0 }
  const near = { year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0 }
  return { start: start ?? near, end: end === undefined ? far : addDays(end, 1) }
}

/** `start <= col < end` with boundaries typed for the column: dates, local wall times or instants. */
export function rangeCondition(t: Target, range: WallRange, env: Env): Expr | null {
  const bound = (w: WallTime) => {
    if (t.column.dataType === 'date') return param(env.dialect.dateValue?.(dateString(w)) ?? dateString(w))
    if (t.converted) return param(env.dialect.wallValue?.(wallString(w)) ?? wallString(w))
    const instant = env.dialect.instantValue(fromWall(w, env.timezone), t.column.nativeType)
    return env.dialect.readsInSessionZone?.(t.column.nativeType) ? sessionZonedParam(instant) : param(instant)
  }
  return and([
    range.start.year > 1 ? cmp('>=', t.expr, bound(range.start)) : null,
    range.end.year < 9999 ? cmp('<', t.expr, bound(range.end)) : null,
  ])
}

/** The comparison range: the same span just before, or a year before. */
export function shiftRange(r: WallRange, period: 'previous-period' | 'previous-year'): WallRange {
  if (period === 'previous-year') {
    return { start: { ...r.start, year: r.start.year - 1 }, end: { ...r.end, year: r.end.year - 1 } }
  }
  if (r.start.day === 1 && r.end.day === 1) {
    const months = (r.end.year - r.start.year) * 12 + (r.end.month - r.start.month)
    return { start: addMonths(r.start, -months), end: r.start }
  }
  const days = Math.round(
    (Date.UTC(r.end.year, r.end.month - 1, r.end.day) - Date.UTC(r.start.year, r.start.month - 1, r.start.day)) /
      86_400_000,
  )
  return { start: addDays(r.start, -days), end: r.start }
}

export interface ValueOptions {
  readonly where: string
  readonly type?: FilterType
  readonly trusted: boolean
  /** The range to use instead of the value's own (comparison queries). */
  readonly range?: WallRange
}

/** The condition a filter value puts on a column; null when it restricts nothing. */
export function valueCondition(t: Target, value: unknown, o: ValueOptions, env: Env): Expr | null {
  const { where } = o
  if (value === null || value === undefined) throw badRequest(`${where}: a value is required`)
  if (Array.isArray(value)) {
    if (value.length > VALUE_LIMITS.list) throw badRequest(`${where}: at most ${VALUE_LIMITS.list} values`)
    return inList(
      t.expr,
      value.map((v) => param(scalar(v, where))),
    )
  }
  const range = o.range ?? wallRangeOf(value, env, where)
  if (range !== undefined) {
    if (!isTemporal(t.column) && t.column.dataType !== 'unknown') {
      throw badRequest(`${where}: a date range needs a date column, "${t.column.name}" is ${t.column.dataType}`)
    }
    return range === null ? null : rangeCondition(t, range, env)
  }
  if (isPlainObject(value)) return objectCondition(t, value, o)
  const v = scalar(value, where)
  if (o.type === 'date-range')
    throw badRequest(`${where}: "${String(plainValue(v))}" is not a date preset or { startDate, endDate }`)
  if (typeof plainValue(v) === 'string' && o.type === 'text') {
    return contains(
      t.expr,
      mappedParam(v, (s) => env.dialect.containsPattern(String(s))),
    )
  }
  return cmp('=', t.expr, param(v))
}

function objectCondition(t: Target, value: Record<string, unknown>, o: ValueOptions): Expr | null {
  const keys = Object.keys(value).sort().join(',')
  if (keys === 'columnName,sql') {
    if (!o.trusted) throw badRequest(`${o.where}: a SQL-driven list is accepted only from a secret-key holder`)
    const { sql, columnName } = value
    if (typeof sql !== 'string' || sql.trim() === '' || typeof columnName !== 'string' || columnName === '') {
      throw badRequest(`${o.where}: a SQL-driven list needs sql and columnName strings`)
    }
    return inSubquery(t.expr, raw(sql.trim().replace(/;+\s*$/, '')), columnName)
  }
  if (keys !== '' && keys.split(',').every((k) => k === 'min' || k === 'max')) {
    const bound = (k: 'min' | 'max') => {
      const v = value[k]
      if (v === undefined || v === null) return undefined
      const n = plainValue(v)
      if (typeof n !== 'number' || !Number.isFinite(n)) throw badRequest(`${o.where}.${k}: expected a number`)
      return v as number | Bound
    }
    const min = bound('min')
    const max = bound('max')
    if (min !== undefined && max !== undefined && (plainValue(min) as number) > (plainValue(max) as number)) {
      throw badRequest(`${o.where}: min is greater than max`)
    }
    return and([
      min === undefined ? null : cmp('>=', t.expr, param(min)),
      max === undefined ? null : cmp('<=', t.expr, param(max)),
    ])
  }
  throw badRequest(
    `${o.where}: not a filter value (boolean, number, string, list, date preset, date range, number range)`,
  )
}

const OPS = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const

/** A document `where` condition; its values are the metric author's, still bound. */
export function whereCondition(t: Target, c: Condition, env: Env, where: string): Expr {
  const vals = c.values ?? []
  const p = (i: number) => {
    const v = vals[i]
    if (v === undefined) throw badRequest(`${where}.values: operator ${c.operator} needs ${i + 1} value(s)`)
    return v === null ? param(null) : param(scalar(v, `${where}.values[${i}]`))
  }
  switch (c.operator) {
    case 'eq':
    case 'neq':
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return cmp(OPS[c.operator], t.expr, p(0))
    case 'in':
    case 'not-in':
      return inList(
        t.expr,
        vals.map((_, i) => p(i)),
        c.operator === 'not-in',
      )
    case 'between':
      return and([cmp('>=', t.expr, p(0)), cmp('<=', t.expr, p(1))]) ?? bool(true)
    case 'is-null':
      return isNull(t.expr)
    case 'is-not-null':
      return isNull(t.expr, true)
    case 'contains': {
      const v = vals[0]
      if (typeof v !== 'string') throw badRequest(`${where}.values[0]: contains takes a string`)
      return contains(t.expr, param(env.dialect.containsPattern(scalar(v, where) as string)))
    }
  }
}
