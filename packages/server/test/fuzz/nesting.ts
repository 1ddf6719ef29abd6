import fc from 'fast-check'
import { type JsonSchema, type SchemaContext, validValue } from './schema-arbitraries.js'

/**
 * Deep nesting at every nested position of a request. A recursive reader, validator,
 * serialiser or cache-key builder overflows its stack on JSON nested a few thousand levels
 * deep; the answer must still be a 4xx in the error shape (docs/errors.md), and a body nested
 * past any sane bound must never be served.
 *
 * Nested JSON is built as text and spliced into the generated body by `jsonText`, which
 * recurses neither: a value too deep for the server's JSON.stringify is too deep for the
 * fuzzer's too, and must not quietly turn into some other body.
 */

/** JSON text that `jsonText` splices in verbatim where a value would go. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A separator or bracket `jsonText` emits as it is. */
class Token {
  constructor(readonly text: string) {}
}

/**
 * The JSON text of a value, however deep (an explicit stack, no recursion). Like
 * JSON.stringify: own enumerable keys in order (an own `__proto__` key included), `undefined`
 * and functions left out of objects and `null` in arrays, non-finite numbers as `null`;
 * a RawJson is spliced in as its text.
 */
export function jsonText(value: unknown): string {
  const out: string[] = []
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const item = stack.pop()
    if (item instanceof Token || item instanceof RawJson) {
      out.push(item.text)
    } else if (Array.isArray(item)) {
      const parts: unknown[] = [new Token('[')]
      item.forEach((v, i) => {
        if (i > 0) parts.push(new Token(','))
        parts.push(v === undefined || typeof v === 'function' || typeof v === 'symbol' ? null : v)
      })
      parts.push(new Token(']'))
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i])
    } else if (item !== null && typeof item === 'object') {
      const parts: unknown[] = [new Token('{')]
      for (const key of Object.keys(item)) {
        const v = (item as Record<string, unknown>)[key]
        if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue
        parts.push(new Token(`${parts.length > 1 ? ',' : ''}${JSON.stringify(key)}:`), v)
      }
      parts.push(new Token('}'))
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i])
    } else {
      out.push(JSON.stringify(item) ?? 'null')
    }
  }
  return out.join('')
}

/**
 * The shapes of deep JSON: a chain of arrays, of objects, the two alternating, wide and deep
 * (every level carries siblings of every JSON type beside the next level), and a forest (a
 * wide array of deep chains).
 */
export type NestShape = 'array' | 'object' | 'mixed' | 'wide' | 'forest'
export const NEST_SHAPES: readonly NestShape[] = ['array', 'object', 'mixed', 'wide', 'forest']

export interface Nesting {
  /** Levels of arrays and objects, counted from where the text is placed. */
  readonly depth: number
  readonly shape: NestShape
  readonly text: string
}

/** The fewest levels any nesting mutation makes (far past any sane bound), and the most. */
export const MIN_NESTING = 100
export const MAX_NESTING = 20_000
/** Characters of deep text at most, so that bodies stay under BODY_LIMIT (1 MiB) and test depth, not size. */
const TEXT_BUDGET = 600_000

/**
 * JSON text nested `depth` levels deep in `shape` (a wide or forest shape is made shallower
 * where `depth` levels of that width would exceed the text budget; never below MIN_NESTING).
 * Built as text: no value that deep is ever made.
 */
export function deepText(depth: number, shape: NestShape, width = 8, leaf = '"x"'): Nesting {
  const open: string[] = []
  const close: string[] = []
  let d = depth
  switch (shape) {
    case 'array':
      return { depth, shape, text: `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}` }
    case 'object':
      return { depth, shape, text: `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}` }
    case 'mixed':
      for (let i = 0; i < d; i++) {
        open.push(i % 2 === 0 ? '[' : '{"a":')
        close.push(i % 2 === 0 ? ']' : '}')
      }
      break
    case 'wide': {
      const siblings = Array.from(
        { length: width },
        (_, i) => `"k${i}":${[0, '"v"', 'null', 'true', '[1]', '{}'][i % 6]},`,
      )
      const level = `{${siblings.join('')}"next":`
      d = Math.max(MIN_NESTING, Math.min(depth, Math.floor(TEXT_BUDGET / (level.length + 1))))
      for (let i = 0; i < d; i++) {
        // the innermost level's siblings are scalars: a `[1]` there would nest deeper than the leaf
        const at = i === d - 1 ? level.replace(/\[1\]|\{\}/g, '0') : level
        open.push(i % 3 === 2 ? `[${siblings.length},"w",` : at)
        close.push(i % 3 === 2 ? ']' : '}')
      }
      break
    }
    case 'forest': {
      const chain = Math.max(MIN_NESTING - 1, Math.min(depth - 1, Math.floor(TEXT_BUDGET / (width * 6))))
      const one = deepText(chain, 'mixed', width, leaf).text
      return { depth: chain + 1, shape, text: `[${Array.from({ length: width }, () => one).join(',')}]` }
    }
  }
  return { depth: d, shape, text: `${open.join('')}${leaf}${close.reverse().join('')}` }
}

/** How deep a nesting mutation goes: the round numbers and everything between. */
export const nestingDepth: fc.Arbitrary<number> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(MIN_NESTING, 1_000, 5_000, 10_000, MAX_NESTING) },
  { weight: 2, arbitrary: fc.integer({ min: MIN_NESTING, max: MAX_NESTING }) },
)

/** Deep JSON text: depth MIN_NESTING to MAX_NESTING, any shape, any width. */
export const nesting: fc.Arbitrary<Nesting> = fc
  .tuple(
    nestingDepth,
    fc.constantFrom(...NEST_SHAPES),
    fc.integer({ min: 2, max: 50 }),
    fc.constantFrom('"x"', '1', 'null', '"DE"', '{}', '[]'),
  )
  .map(([depth, shape, width, leaf]) => deepText(depth, shape, width, leaf))

/** One step down a JSON value: an object key, an array index, or one of several keys (picked per case). */
export type Step = string | number | readonly string[]

/** A position of a request value where nesting is tried; `[]` is the whole value. */
export interface Position {
  readonly path: readonly Step[]
  /** e.g. `dashboardFilter.*[0]` (`*`: one of the keys of the field's pool). */
  readonly label: string
  /**
   * Inside a record or a free-form value, where the schema bounds no shape: a deep value
   * there passes validation and reaches the code behind it.
   */
  readonly open: boolean
}

const MAX_SCHEMA_DEPTH = 10

/**
 * Every nested position of values of `schema`: the value itself, every declared property,
 * a key of every record (one of the field's pooled keys), the first item of every array, and
 * inside every free-form value (`Type.Unknown()`, a record of unknown, `{}`) a list item and
 * an object member too, as a filter value would carry them.
 */
export function nestingPositions(schema: JsonSchema, ctx: SchemaContext, field = ''): Position[] {
  const found = new Map<string, Position>()
  const add = (path: Step[], open: boolean) => {
    const label = labelOf(path)
    if (!found.has(label)) found.set(label, { path, label, open })
  }
  const walk = (s: JsonSchema | undefined, path: Step[], name: string, depth: number, open = false): void => {
    add(path, open)
    if (!s || depth > MAX_SCHEMA_DEPTH) return
    if (s.$ref) {
      walk(ctx.resolve(s.$ref), path, name, depth + 1, open)
      return
    }
    for (const alternative of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) walk(alternative, path, name, depth + 1, open)
    if (s.allOf && s.allOf.length > 0) walk(Object.assign({}, ...s.allOf) as JsonSchema, path, name, depth + 1, open)
    const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type]
    const freeForm =
      types.length === 0 && !s.anyOf && !s.oneOf && !s.allOf && !s.properties && s.enum === undefined && !('const' in s)
    if (types.includes('object') || s.properties) {
      for (const [key, sub] of Object.entries(s.properties ?? {})) walk(sub, [...path, key], key, depth + 1, open)
      const extra = s.additionalProperties
      if (extra !== undefined && extra !== false) {
        walk(extra === true ? {} : extra, [...path, recordKeys(ctx, name)], name, depth + 1, true)
      }
    }
    if (types.includes('array')) walk(s.items ?? {}, [...path, 0], name, depth + 1, open)
    if (freeForm) {
      // a free-form value: deep inside a list, or inside an object (a filter value's own keys)
      add([...path, 0], true)
      add([...path, valueKeys(ctx, name)], true)
    }
  }
  walk(schema, [], field, 0)
  return [...found.values()]
}

/** The keys of a record field's pooled values (`country`, `period` … for dashboardFilter), else `a`. */
function recordKeys(ctx: SchemaContext, field: string): readonly string[] {
  const keys = new Set<string>()
  for (const v of ctx.pool(field) ?? []) if (isObject(v)) for (const k of Object.keys(v)) keys.add(k)
  return keys.size > 0 ? [...keys] : ['a']
}

/** The keys of objects one level inside a field's pooled values (`min`, `startDate`, `sql` …), and `a`. */
function valueKeys(ctx: SchemaContext, field: string): readonly string[] {
  const keys = new Set<string>(['a'])
  for (const v of ctx.pool(field) ?? [])
    if (isObject(v))
      for (const inner of Object.values(v)) if (isObject(inner)) for (const k of Object.keys(inner)) keys.add(k)
  return [...keys]
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

function labelOf(path: readonly Step[]): string {
  let out = ''
  for (const step of path) {
    if (typeof step === 'number') out += `[${step}]`
    else out += `${out === '' ? '' : '.'}${typeof step === 'string' ? step : '*'}`
  }
  return out === '' ? '(whole)' : out
}

/**
 * `root` with `leaf` at `path`: missing or mistyped containers on the way are made (an object
 * for a key, an array for an index); `pick` chooses among a step's keys. Mutates `root`.
 */
export function placeAt(root: unknown, path: readonly Step[], leaf: unknown, pick: number): unknown {
  const first = path[0]
  if (first === undefined) return leaf
  const containerFor = (step: Step, current: unknown) => {
    if (typeof step === 'number') return Array.isArray(current) ? current : []
    return isObject(current) ? current : {}
  }
  const top = containerFor(first, root)
  let node: Record<string, unknown> | unknown[] = top
  path.forEach((step, i) => {
    const key = typeof step === 'object' ? (step[pick % step.length] as string) : step
    const next = path[i + 1]
    const value = next === undefined ? leaf : containerFor(next, getAt(node, key))
    setAt(node, key, value)
    if (next !== undefined) node = value as Record<string, unknown> | unknown[]
  })
  return top
}

function getAt(node: Record<string, unknown> | unknown[], key: string | number): unknown {
  if (Array.isArray(node)) return node[Number(key)]
  return Object.hasOwn(node, key) ? node[key as string] : undefined
}

function setAt(node: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  if (Array.isArray(node)) {
    const i = Math.min(Number(key) || 0, node.length)
    node[i] = value
  } else {
    Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true })
  }
}

/** What a nesting mutation put where; kept on the request for the oracle and the report. */
export interface NestingInfo {
  /** `body`, `query` (a parameter) or `query key` (bracket-nested parameter names). */
  readonly where: 'body' | 'query' | 'query key'
  /** The position, e.g. `dashboardFilter.*[0]`, `(whole)`, or the query parameter's name. */
  readonly at: string
  readonly depth: number
  readonly shape: NestShape
  /** In a query parameter that carries JSON (read as JSON by the server, so bound like a body). */
  readonly json?: true
}

/** A copy to change: pooled values are shared by every case. */
function copyOf<T>(value: T): T {
  try {
    return structuredClone(value)
  } catch {
    return value
  }
}

/**
 * Bodies of `schema` with deep JSON at one of its nested positions (the whole body included),
 * the rest of the body valid (a body the fixture knows is served, two times in three where it
 * knows one), so that the deep part reaches as far as a valid one would.
 */
export function nestedValue(
  schema: JsonSchema,
  ctx: SchemaContext,
  field = '',
): fc.Arbitrary<{ text: string; at: string; nesting: Nesting }> {
  const positions = nestingPositions(schema, ctx, field)
  const examples = field === '' ? (ctx.examples ?? []) : []
  const base =
    examples.length > 0
      ? fc.oneof(
          { weight: 2, arbitrary: fc.constantFrom(...examples) },
          { weight: 1, arbitrary: validValue(schema, ctx, field) },
        )
      : validValue(schema, ctx, field)
  // open positions three times as often: where no schema bounds the shape, the deep value reaches further
  const weighted = positions.flatMap((p) => (p.open ? [p, p, p] : [p]))
  return fc.tuple(base, fc.constantFrom(...weighted), nesting, fc.nat()).map(([value, position, deep, pick]) => ({
    text: jsonText(placeAt(copyOf(value), position.path, new RawJson(deep.text), pick)),
    at: position.label,
    nesting: deep,
  }))
}

/** Query parameter names nested with brackets (`a[a][a]…=1`), as qs-style parsers read objects. */
export const nestedQueryKey: fc.Arbitrary<{ pair: string; name: string; depth: number }> = fc
  .tuple(nestingDepth, fc.constantFrom('dashboardFilter', 'metricFilter', 'a', '__proto__'), fc.boolean())
  .map(([depth, name, encoded]) => ({
    pair: `${name}${(encoded ? '%5Ba%5D' : '[a]').repeat(depth)}=1`,
    name,
    depth,
  }))
