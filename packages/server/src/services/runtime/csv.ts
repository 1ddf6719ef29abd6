import { humanise } from '@strata/embed/chart-options'
import type { ColumnFormat, MetricFormats } from '../../query/document.js'

/** A column name as a header: the web component's rule itself ("order_count" → "Order count"). */
export { humanise }

/**
 * RFC 4180 CSV of result rows, under `headers` (default: the column names). Cells that a
 * spreadsheet would run as a formula (= + - @, tab, CR at the start) are prefixed with a quote,
 * so a tenant's data cannot inject formulas. Values are written raw (no currency sign, no
 * grouping, a percent as its fraction), so a spreadsheet computes with them.
 */
export function toCsv(
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
  headers: readonly string[] = columns,
): string {
  const lines = [headers.map(cell).join(',')]
  for (const row of rows) lines.push(columns.map((c) => cell(row[c])).join(','))
  return `${lines.join('\r\n')}\r\n`
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return ''
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value)
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/**
 * The CSV header row. A metric without `formats` keeps its column names (as scripts read them).
 * With `formats`, every header is the column's label as the element shows it ("order_count" →
 * "Order count"), and a formatted column names the unit of its raw values: a currency its code
 * ("Revenue (USD)"), a percent "(fraction)" — the cell holds 0.25 for 25%, so a spreadsheet
 * computes with it; a plain number nothing.
 */
export function csvHeaders(columns: readonly string[], formats: MetricFormats | undefined): string[] {
  if (formats === undefined) return [...columns]
  return columns.map((c) => {
    const unit = unitOf(formats[c])
    return unit ? `${humanise(c)} (${unit})` : humanise(c)
  })
}

function unitOf(f: ColumnFormat | undefined): string | undefined {
  if (f?.style === 'currency') return f.currency
  if (f?.style === 'percent') return 'fraction'
  return undefined
}
