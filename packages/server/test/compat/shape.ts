/**
 * What "an answer matches a published example" means in the replay of test/compat: every field
 * the example names is in the answer with a value of the same kind (string, number, boolean,
 * null, object, array), recursively; each item of an example array is matched by some item of
 * the answer's array. Fields the answer has beyond the example are allowed (a client reads only
 * what it knows). Values are compared only where the example holds a context value (an id the
 * request named), which the caller has already put in place of its placeholder.
 */
export function shapeMismatches(actual: unknown, example: unknown, path = '$'): string[] {
  if (example === null) return actual === null ? [] : [`${path}: expected null, got ${kind(actual)}`]
  if (Array.isArray(example)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array, got ${kind(actual)}`]
    return example.flatMap((item, i) =>
      actual.some((candidate) => shapeMismatches(candidate, item).length === 0)
        ? []
        : [`${path}[${i}]: no item of the answer matches ${JSON.stringify(item)}`],
    )
  }
  if (typeof example === 'object') {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) {
      return [`${path}: expected an object, got ${kind(actual)}`]
    }
    const record = actual as Record<string, unknown>
    return Object.entries(example).flatMap(([key, value]) =>
      key in record ? shapeMismatches(record[key], value, `${path}.${key}`) : [`${path}.${key}: missing`],
    )
  }
  if (typeof example === 'string' && example.startsWith('=')) {
    return actual === example.slice(1) ? [] : [`${path}: expected ${example.slice(1)}, got ${JSON.stringify(actual)}`]
  }
  return typeof actual === typeof example ? [] : [`${path}: expected a ${typeof example}, got ${kind(actual)}`]
}

function kind(value: unknown): string {
  if (value === null) return 'null'
  return Array.isArray(value) ? 'an array' : typeof value
}

/**
 * `{{name}}` in every string of `value` replaced by `context[name]` (request bodies, urls and
 * expected answers); a string that is nothing but `{{name}}` becomes the context value itself,
 * whatever it is (a document to import).
 */
export function fill<T>(value: T, context: Readonly<Record<string, unknown>>): T {
  if (typeof value === 'string') {
    const whole = /^\{\{(\w+)\}\}$/.exec(value)?.[1]
    if (whole !== undefined && whole in context && typeof context[whole] !== 'string') return context[whole] as T
    return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
      const found = context[name]
      if (typeof found !== 'string') throw new Error(`no context string for {{${name}}}`)
      return found
    }) as T
  }
  if (Array.isArray(value)) return value.map((item) => fill(item, context)) as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item, context)])) as T
  }
  return value
}
