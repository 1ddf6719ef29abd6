import type { DrillFilter, RuntimeFilter } from '../api/types.js'

/** A drill value from a row's cell: strings, numbers and booleans (a null or an object is not one). */
export function scalar(v: unknown): string | number | boolean | undefined {
  if (typeof v === 'string') return v.length <= 500 ? v : undefined
  if (typeof v === 'number' && Number.isFinite(v)) return v
  if (typeof v === 'boolean') return v
  return undefined
}

const tableMatches = (a: string, b: string) => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`)

/** Whether a dashboard filter reads the column a drill value is on. */
export const sameColumn = (f: RuntimeFilter, d: DrillFilter) => f.column === d.column && tableMatches(f.table, d.table)

/** Whether a dashboard filter of `type` can hold a drill value (a date range a period, a select a text…). */
export function accepts(type: string, value: DrillFilter['value']): boolean {
  const range = typeof value === 'object'
  switch (type) {
    case 'date-range':
      return range
    case 'multi-select':
    case 'single-select':
    case 'text':
      return typeof value === 'string'
    case 'number-range':
      return typeof value === 'number'
    case 'boolean':
      return typeof value === 'boolean'
    default:
      return false
  }
}

/** The dashboard filter's value for a drill value (a multi-select takes a list, a number range both ends). */
export function valueFor(type: string, value: DrillFilter['value']): unknown {
  switch (type) {
    case 'multi-select':
      return [value]
    case 'number-range':
      return { min: value, max: value }
    default:
      return value
  }
}
