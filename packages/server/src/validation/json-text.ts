import secureJson from 'secure-json-parse'
import { fieldsError } from './fields.js'

/**
 * How deep any JSON the server reads from a request may nest: no body, query-string JSON or
 * tool call of this API nests half as deep; anything deeper would only exercise recursion
 * (validation, serialisation and cache keys recurse over a parsed value).
 */
export const MAX_JSON_DEPTH = 32

/** Why a JSON text was refused; `problem` reads after its subject (`query string "x" …`). */
export interface JsonTextFault {
  readonly kind: 'too long' | 'too deep' | 'malformed' | 'poisoned'
  readonly problem: string
}

export type JsonTextResult = { readonly value: unknown } | { readonly fault: JsonTextFault }

/**
 * The one parser of JSON that enters from outside (request bodies, JSON in query strings, the
 * AI provider's tool arguments): at most `maxLength` characters, at most MAX_JSON_DEPTH levels
 * deep (checked on the text, before parsing), valid, and without a prototype-poisoning key
 * (`__proto__`, or `constructor` holding a `prototype`). A leading byte-order mark is ignored.
 * Answers the value or the fault; each caller words the 400 (or the retry) for its subject.
 */
export function parseJsonText(text: string, maxLength = Number.POSITIVE_INFINITY): JsonTextResult {
  if (text.length > maxLength)
    return { fault: { kind: 'too long', problem: `must be at most ${maxLength} characters long` } }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    return { fault: { kind: 'too deep', problem: `nests deeper than ${MAX_JSON_DEPTH} levels` } }
  }
  try {
    // secure-json-parse: JSON.parse, then a scan only when the text could spell such a key
    return { value: cannotPoison(text) ? JSON.parse(text) : secureJson.parse(text, undefined, POISON_ERRORS) }
  } catch {
    // which of the two it was: parsed again on the failure path only
    try {
      JSON.parse(text)
    } catch {
      return { fault: { kind: 'malformed', problem: 'is not valid JSON' } }
    }
    return { fault: { kind: 'poisoned', problem: POISONED } }
  }
}

const POISON_ERRORS = { protoAction: 'error', constructorAction: 'error' } as const
const POISONED = 'has a key __proto__, or a constructor with a prototype, which is refused'

/**
 * Whether the JSON text nests arrays and objects deeper than `max`, without parsing it (and
 * without recursion). Brackets inside strings do not count.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  // Most texts open fewer brackets than `max` in all: counted with the native indexOf, that
  // settles it without the character walk below (~0.15 µs instead of ~2 µs for a 1 KB body).
  if (opensAtMost(text, max)) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}

function opensAtMost(text: string, max: number): boolean {
  let opens = 0
  for (const bracket of ['{', '[']) {
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1)) if (++opens > max) return false
  }
  return true
}

/**
 * A text that spells neither `__proto__` nor `constructor`, and escapes no character (which
 * could spell them), cannot carry a prototype-poisoning key: the parsed value needs no scan.
 * Anything else goes through secure-json-parse (its scan is ~3–6 µs per request on the hot paths).
 */
const cannotPoison = (text: string): boolean =>
  !text.includes('\\u') && !text.includes('__proto__') && !text.includes('constructor')

/**
 * A query-string parameter that carries a JSON object (the CSV download's `dashboardFilter`):
 * the object, or the 400 naming the parameter, through the same parser and depth as a body.
 */
export function queryJsonObject(name: string, text: string, maxLength: number): Record<string, unknown> {
  const parsed = parseJsonText(text, maxLength)
  const value = 'value' in parsed ? parsed.value : undefined
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  const problem =
    'fault' in parsed && parsed.fault.kind !== 'malformed' ? parsed.fault.problem : 'must be a JSON object'
  throw fieldsError([{ in: 'query', path: name, problem }])
}
