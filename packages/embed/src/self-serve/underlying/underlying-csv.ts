/** The underlying rows as CSV (RFC 4180: CRLF, fields quoted where they hold a quote, comma or line break). */
export function rowsToCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const field = (v: unknown): string => {
    if (v === null || v === undefined) return ''
    const s = typeof v === 'object' ? JSON.stringify(v) : String(v)
    // a leading =, +, - or @ would be a formula to a spreadsheet: prefix it so it stays text
    const safe = /^[=+\-@\t\r]/.test(s) && !/^-?\d/.test(s) ? `'${s}` : s
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
  }
  return [columns.map(field).join(','), ...rows.map((r) => columns.map((c) => field(r[c])).join(','))].join('\r\n')
}

/** Sorts rows by one column (numbers as numbers, nulls last), without changing the input. */
export function sortRows(
  rows: readonly Record<string, unknown>[],
  column: string,
  direction: 'ascending' | 'descending',
): Record<string, unknown>[] {
  const sign = direction === 'ascending' ? 1 : -1
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })
  return [...rows].sort((a, b) => {
    const x = a[column]
    const y = b[column]
    if (x === null || x === undefined) return y === null || y === undefined ? 0 : 1
    if (y === null || y === undefined) return -1
    if (typeof x === 'number' && typeof y === 'number') return sign * (x - y)
    return sign * collator.compare(String(x), String(y))
  })
}
