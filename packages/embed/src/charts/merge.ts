const UNSAFE = new Set(['__proto__', 'constructor', 'prototype'])
const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype

/** `extra` merged over `base`: objects recursively, anything else replaced; never touches prototypes. */
export function mergeDeep(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(extra)) {
    if (UNSAFE.has(key) || value === undefined) continue
    const current = out[key]
    out[key] = isPlain(current) && isPlain(value) ? mergeDeep(current, value) : value
  }
  return out
}
