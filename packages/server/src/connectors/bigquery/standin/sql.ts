/**
 * GoogleSQL text → DuckDB text, for the stand-in only: backtick identifiers become double-quoted
 * ones (BigQuery's backslash escapes undone), `@name` query parameters become DuckDB's `$name`;
 * string literals and comments pass through untouched. A few BigQuery functions the tests use
 * are DuckDB macros (MACROS). This is not a BigQuery SQL implementation: the stand-in proves the
 * transport, the dialect is proven by its goldens and by ZetaSQL.
 */
export const MACROS = [
  'CREATE MACRO generate_array(a, b) AS generate_series(a, b)',
  'CREATE MACRO timestamp_seconds(s) AS to_timestamp(s)',
]

export function toDuckdb(sql: string): string {
  let out = ''
  let i = 0
  while (i < sql.length) {
    const ch = sql[i] as string
    if (ch === "'" || ch === '"') {
      // a string literal: copied as it is up to its closing quote (backslash escapes skipped)
      let j = i + 1
      while (j < sql.length && sql[j] !== ch) j += sql[j] === '\\' ? 2 : 1
      out += sql.slice(i, j + 1)
      i = j + 1
    } else if (ch === '`') {
      let name = ''
      let j = i + 1
      while (j < sql.length && sql[j] !== '`') {
        if (sql[j] === '\\') j++
        name += sql[j] ?? ''
        j++
      }
      out += `"${name.replaceAll('"', '""')}"`
      i = j + 1
    } else if (ch === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i)
      out += end < 0 ? sql.slice(i) : sql.slice(i, end)
      i = end < 0 ? sql.length : end
    } else if (ch === '@' && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const m = /^@([A-Za-z_][A-Za-z0-9_]*)/.exec(sql.slice(i)) as RegExpExecArray
      out += `$${m[1]}`
      i += m[0].length
    } else {
      out += ch
      i++
    }
  }
  return out
}
