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
