/**
 * The stand-in's one SQL rewrite, lexical only: Databricks' backtick identifiers become DuckDB's
 * double-quoted ones and named parameter markers `:name` become DuckDB's `$name`, outside string
 * literals and comments (`::` casts stay). Everything else reaches DuckDB as written, so the
 * stand-in proves the transport, not Databricks' SQL. Not handled (our statements use none):
 * Databricks' double-quoted string literals and backslash escapes inside string literals.
 */
export function toDuckSql(sql: string): string {
  let out = ''
  let i = 0
  while (i < sql.length) {
    const ch = sql[i] as string
    const next = sql[i + 1]
    if (ch === "'") {
      const end = endOfString(sql, i)
      out += sql.slice(i, end)
      i = end
    } else if (ch === '-' && next === '-') {
      const end = sql.indexOf('\n', i)
      const stop = end < 0 ? sql.length : end
      out += sql.slice(i, stop)
      i = stop
    } else if (ch === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2)
      const stop = end < 0 ? sql.length : end + 2
      out += sql.slice(i, stop)
      i = stop
    } else if (ch === '`') {
      let name = ''
      let j = i + 1
      for (; j < sql.length; j++) {
        if (sql[j] === '`') {
          if (sql[j + 1] === '`') {
            name += '`'
            j++
            continue
          }
          break
        }
        name += sql[j]
      }
      out += `"${name.replaceAll('"', '""')}"`
      i = j + 1
    } else if (ch === ':' && next === ':') {
      out += '::'
      i += 2
    } else if (ch === ':' && next !== undefined && /[A-Za-z_]/.test(next)) {
      out += '$'
      i++
    } else {
      out += ch
      i++
    }
  }
  return out
}

/** Index just past the string literal opening at `start` ('' and \' do not end it). */
function endOfString(sql: string, start: number): number {
  for (let j = start + 1; j < sql.length; j++) {
    if (sql[j] === '\\') {
      j++
      continue
    }
    if (sql[j] === "'") {
      if (sql[j + 1] === "'") {
        j++
        continue
      }
      return j + 1
    }
  }
  return sql.length
}
