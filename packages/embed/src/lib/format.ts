import { cachedIntl } from './intl.js'
import { formatNumber, isNumericType, toNumber } from './numbers.js'

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/

/** A date or datetime cell as a short label: midnight datetimes show as dates. */
export function formatTemporal(value: string): string {
  if (DATE_ONLY.test(value)) return value
  const m = DATE_TIME.exec(value)
  if (!m) return value
  return m[2] === '00:00' && (m[3] === undefined || /^:00(\.0+)?$/.test(m[3])) ? m[1]! : `${m[1]} ${m[2]}`
}

/** A cell for display, by the column's data type. */
export function formatCell(value: unknown, dataType: string | undefined, locale?: string): string {
  if (value === null || value === undefined) return ''
  if (isNumericType(dataType) || typeof value === 'number') {
    const n = toNumber(value)
    if (n !== null) return formatNumber(n, { locale })
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'string') return dataType === 'date' || dataType === 'datetime' ? formatTemporal(value) : value
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** A category label (x axis, pie slice, filter option). */
export function labelOf(value: unknown): string {
  if (value === null || value === undefined) return '(empty)'
  if (typeof value === 'string') return formatTemporal(value)
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** Dates are the warehouse's wall clock: formatted in UTC, so the viewer's zone never shifts them. */
const dateFormat = cachedIntl(
  (locale, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }),
)

/** A date or datetime cell as a UTC instant (the warehouse's wall clock), or null when it is neither. */
function parseTemporal(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value)
  if (!m) return null
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0)))
  return Number.isNaN(d.getTime()) ? null : d
}

/** ISO 8601 week: "2026-W05" (the week's year is the year of its Thursday). */
function isoWeek(d: Date): string {
  const day = 86_400_000
  const thursday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) + (3 - ((d.getUTCDay() + 6) % 7)) * day
  const year = new Date(thursday).getUTCFullYear()
  const jan4 = Date.UTC(year, 0, 4)
  const firstThursday = jan4 + (3 - ((new Date(jan4).getUTCDay() + 6) % 7)) * day
  const week = 1 + Math.round((thursday - firstThursday) / (7 * day))
  return `${year}-W${String(week).padStart(2, '0')}`
}

/**
 * A time bucket as its grain reads: month "Dec 2025", quarter "Q1 2026", week "2026-W05",
 * day a locale date, hour a locale date and time, year "2026". Not a date: the value unchanged.
 */
export function formatTime(value: unknown, grain: string | undefined, locale?: string): string {
  if (typeof value !== 'string') return labelOf(value)
  const d = parseTemporal(value)
  if (!d) return value
  switch (grain) {
    case 'year':
      return String(d.getUTCFullYear())
    case 'quarter':
      return `Q${Math.floor(d.getUTCMonth() / 3) + 1} ${d.getUTCFullYear()}`
    case 'month':
      return dateFormat(locale, { month: 'short', year: 'numeric' }).format(d)
    case 'week':
      return isoWeek(d)
    case 'hour':
      return dateFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(d)
    case 'day':
      return dateFormat(locale, { dateStyle: 'medium' }).format(d)
    default:
      return labelOf(value)
  }
}

/**
 * The grain a column's values show when the document names none (a SQL metric): dates at
 * midnight on the first of a month read as months, or as quarters (years) when there are at least
 * three and each follows the one before by exactly three (twelve) months; other midnight dates as days.
 */
export function inferGrain(values: readonly unknown[]): string | undefined {
  const dates = values.filter((v) => v !== null && v !== undefined)
  if (dates.length === 0) return undefined
  const months: number[] = []
  let firsts = true
  for (const v of dates) {
    if (typeof v !== 'string') return undefined
    const d = parseTemporal(v)
    if (!d || formatTemporal(v).length !== 10) return undefined
    if (d.getUTCDate() !== 1) firsts = false
    months.push(d.getUTCFullYear() * 12 + d.getUTCMonth())
  }
  if (!firsts) return 'day'
  const distinct = [...new Set(months)].sort((a, b) => a - b)
  const steps = distinct.slice(1).map((m, i) => m - distinct[i]!)
  if (distinct.length >= 3 && steps.every((s) => s === 12)) return 'year'
  if (distinct.length >= 3 && steps.every((s) => s === 3)) return 'quarter'
  return 'month'
}

/** A column name as a header: "order_count" → "Order count", "avgOrderValue" → "Avg order value". */
export function humanise(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\s]+/g, ' ')
    .trim()
  if (!words) return name
  const lower = words === words.toUpperCase() && /[a-z]/i.test(words) && words.length <= 4 ? words : words.toLowerCase()
  return lower.charAt(0).toUpperCase() + lower.slice(1)
}
