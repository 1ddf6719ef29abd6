/**
 * Values as Trino SQL literals: the one way values reach Trino and Athena, which cannot bind.
 * Trino's client protocol has no bind step (a prepared statement's values arrive in
 * `EXECUTE … USING` as expressions), and Athena substitutes `ExecutionParameters` as literal text.
 * So each value is rendered here as a typed literal, completely escaped, and nothing else ever
 * puts a value into SQL text. Rules, from Trino's grammar (SqlBase.g4) and
 * https://trino.io/docs/current/language/types.html:
 * - a string literal is `'…'`; inside it only `'` is special and is written `''`. Backslashes,
 *   newlines, `--`, `/*`, `?` and every other character stand for themselves (Trino has no
 *   backslash escapes; `U&'…'` escapes apply only with that prefix, which we never write).
 *   NUL and unpaired UTF-16 surrogates are refused: the first is cut by some clients and logs,
 *   the second cannot be sent as UTF-8 without changing the value;
 * - integers are decimal digits (an optional `-`), other numbers `DOUBLE '…'` (a plain `1.5` would
 *   be a DECIMAL), booleans TRUE/FALSE, null NULL;
 * - a Date is `TIMESTAMP 'YYYY-MM-DD HH:MM:SS.sss'`, its UTC wall clock (naive timestamps are UTC);
 *   a TrinoTemporal (the dialect's date-range bounds) `DATE '…'` / `TIMESTAMP '…'`, its text
 *   checked to be digits in that shape.
 * literals.test.ts proves the rendering safe: hostile strings and random strings read back
 * equal by a SQL parser (DuckDB's, whose string literal rules are Trino's), one literal each.
 */
import { TrinoTemporal } from '../../query/dialects/trino.js'
import { queryError as refused } from '../errors.js'

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/** A string as a Trino string literal: `'` doubled, nothing else changed. */
export function stringLiteral(text: string): string {
  if (text.includes('\u0000')) throw refused('a text value must not contain a NUL character')
  if (LONE_SURROGATE.test(text)) throw refused('a text value must be valid Unicode (no unpaired surrogates)')
  return `'${text.replaceAll("'", "''")}'`
}

const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/
const TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,9})?$/

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** One value as a Trino literal (see the rules above); anything else is refused with a 400. */
export function trinoLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  switch (typeof value) {
    case 'string':
      return stringLiteral(value)
    case 'boolean':
      return value ? 'TRUE' : 'FALSE'
    case 'bigint':
      if (value < INT64_MIN || value > INT64_MAX) throw refused('an integer value is beyond 64 bits')
      return value.toString()
    case 'number':
      if (!Number.isFinite(value)) throw refused('a number value must be finite')
      if (Number.isSafeInteger(value)) return String(value === 0 ? 0 : value)
      return `DOUBLE '${String(value)}'`
  }
  if (value instanceof TrinoTemporal) {
    const pattern = value.type === 'DATE' ? DATE_TEXT : TIMESTAMP_TEXT
    if (!pattern.test(value.text)) throw refused(`not a ${value.type.toLowerCase()}: ${value.text.slice(0, 40)}`)
    return `${value.type} '${value.text}'`
  }
  if (value instanceof Date) {
    const t = value.getTime()
    if (Number.isNaN(t) || value.getUTCFullYear() < 1 || value.getUTCFullYear() > 9999) {
      throw refused('a date value is invalid or beyond year 9999')
    }
    return (
      `TIMESTAMP '${pad(value.getUTCFullYear(), 4)}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())} ` +
      `${pad(value.getUTCHours())}:${pad(value.getUTCMinutes())}:${pad(value.getUTCSeconds())}.${pad(value.getUTCMilliseconds(), 3)}'`
    )
  }
  throw refused('a value must be a string, number, boolean, date or null')
}
