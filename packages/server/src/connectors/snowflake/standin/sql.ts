/**
 * The stand-in's SQL pass over Snowflake statement text, token by token (string literals with
 * `''` and backslash escapes, "quoted" identifiers, $$ strings, -- and /* comments are skipped):
 * - bind placeholders `:1` … and `?` become DuckDB's `$1` … (a `::` cast is left alone);
 * - `INFORMATION_SCHEMA.` becomes `SF_INFORMATION_SCHEMA.`: DuckDB's own information_schema
 *   cannot be replaced, so the stand-in keeps Snowflake-shaped catalogue tables of its own;
 * - statements are counted (Snowflake refuses more than one per request by default).
 */
export interface Translated {
  readonly sql: string
  /** For each DuckDB `$k` (k = index + 1): the Snowflake binding number it reads. */
  readonly bindOrder: readonly number[]
  readonly statements: number
}

export function translate(text: string): Translated {
  let out = ''
  const bindOrder: number[] = []
  let statements = 0
  let sawToken = false
  let i = 0
  const n = text.length
  while (i < n) {
    const ch = text[i] as string
    const next = text[i + 1]
    if (ch === "'") {
      let j = i + 1
      while (j < n) {
        if (text[j] === '\\') j += 2
        else if (text[j] === "'" && text[j + 1] === "'") j += 2
        else if (text[j] === "'") break
        else j++
      }
      out += text.slice(i, j + 1)
      i = j + 1
      sawToken = true
      continue
    }
    if (ch === '"') {
      let j = i + 1
      while (j < n && !(text[j] === '"' && text[j + 1] !== '"')) j += text[j] === '"' ? 2 : 1
      out += text.slice(i, j + 1)
      i = j + 1
      sawToken = true
      continue
    }
    if (ch === '$' && next === '$') {
      const end = text.indexOf('$$', i + 2)
      const j = end < 0 ? n : end + 2
      out += text.slice(i, j)
      i = j
      sawToken = true
      continue
    }
    if (ch === '-' && next === '-') {
      const end = text.indexOf('\n', i)
      const j = end < 0 ? n : end
      out += text.slice(i, j)
      i = j
      continue
    }
    if (ch === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2)
      const j = end < 0 ? n : end + 2
      out += text.slice(i, j)
      i = j
      continue
    }
    if (ch === ':' && next === ':') {
      out += '::'
      i += 2
      continue
    }
    if (ch === ':' && /[0-9]/.test(next ?? '')) {
      let j = i + 1
      while (j < n && /[0-9]/.test(text[j] as string)) j++
      const number = Number(text.slice(i + 1, j))
      let k = bindOrder.indexOf(number)
      if (k < 0) k = bindOrder.push(number) - 1
      out += `$${k + 1}`
      i = j
      sawToken = true
      continue
    }
    if (ch === '?') {
      bindOrder.push(bindOrder.length + 1)
      out += `$${bindOrder.length}`
      i++
      sawToken = true
      continue
    }
    if (ch === ';') {
      if (sawToken) statements++
      sawToken = false
      out += ch
      i++
      continue
    }
    const rest = text.slice(i)
    const m = /^information_schema\s*\./i.exec(rest)
    if (m && !/[A-Za-z0-9_$]/.test(text[i - 1] ?? '')) {
      out += 'SF_INFORMATION_SCHEMA.'
      i += m[0].length
      sawToken = true
      continue
    }
    if (!/\s/.test(ch)) sawToken = true
    out += ch
    i++
  }
  if (sawToken) statements++
  return { sql: out, bindOrder, statements }
}

/** `ALTER SESSION SET NAME = value` / `ALTER SESSION UNSET NAME`, else undefined. */
export function alterSession(text: string): { name: string; value: string | undefined } | undefined {
  const set = /^\s*alter\s+session\s+set\s+([A-Za-z_]+)\s*=\s*('(?:[^']|'')*'|[^\s;]+)\s*;?\s*$/i.exec(text)
  if (set) {
    const raw = set[2] as string
    const value = raw.startsWith("'") ? raw.slice(1, -1).replaceAll("''", "'") : raw
    return { name: (set[1] as string).toUpperCase(), value }
  }
  const unset = /^\s*alter\s+session\s+unset\s+([A-Za-z_]+)\s*;?\s*$/i.exec(text)
  return unset ? { name: (unset[1] as string).toUpperCase(), value: undefined } : undefined
}

/** An identifier of a login request as Snowflake reads it: "quoted" exactly, else upper-cased. */
export function loginIdentifier(name: string | undefined): string | undefined {
  if (name === undefined || name === '') return undefined
  if (name.startsWith('"') && name.endsWith('"') && name.length >= 2) return name.slice(1, -1).replaceAll('""', '"')
  return name.toUpperCase()
}
