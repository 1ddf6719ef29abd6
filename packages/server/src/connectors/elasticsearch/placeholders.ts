/**
 * A statement's JSON text → the request object with its placeholders replaced by values:
 * `{"$param": i}` by params[i], `{"$session": "timezone"}` by the session zone. A value is
 * put in the object's place as a JSON value: it never enters a string, so it is data whatever
 * it holds. Objects are rebuilt with Object.fromEntries (a `__proto__` key stays a plain key).
 */
import { queryError } from '../errors.js'

export function substitute(node: unknown, params: readonly unknown[], timezone: string): unknown {
  if (Array.isArray(node)) return node.map((x) => substitute(x, params, timezone))
  if (node === null || typeof node !== 'object') return node
  const keys = Object.keys(node)
  const o = node as Record<string, unknown>
  if (keys.length === 1 && keys[0] === '$param') {
    const i = o.$param
    if (typeof i !== 'number' || !Number.isSafeInteger(i) || i < 0 || i >= params.length) {
      throw queryError(`the statement refers to parameter ${String(i)}, and ${params.length} were given`)
    }
    return jsonValue(params[i])
  }
  if (keys.length === 1 && keys[0] === '$session' && o.$session === 'timezone') return timezone
  return Object.fromEntries(keys.map((k) => [k, substitute(o[k], params, timezone)]))
}

/** A bound value as JSON: dates as ISO instants, bigints as numbers when exact, else strings. */
function jsonValue(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString()
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()
  if (v === undefined) return null
  return v
}
