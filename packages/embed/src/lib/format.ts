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
