import fc from 'fast-check'
import { anyJson, hostileString } from './hostile.js'

/** The JSON Schema subset that @fastify/swagger emits for our TypeBox schemas. */
export interface JsonSchema {
  readonly type?: string | readonly string[]
  readonly enum?: readonly unknown[]
  readonly const?: unknown
  readonly anyOf?: readonly JsonSchema[]
  readonly oneOf?: readonly JsonSchema[]
  readonly allOf?: readonly JsonSchema[]
  readonly $ref?: string
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: readonly string[]
  readonly additionalProperties?: boolean | JsonSchema
  readonly patternProperties?: Readonly<Record<string, JsonSchema>>
  readonly items?: JsonSchema
  readonly minItems?: number
  readonly maxItems?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly pattern?: string
  readonly format?: string
  readonly minimum?: number
  readonly maximum?: number
  readonly exclusiveMinimum?: number
  readonly exclusiveMaximum?: number
}

export interface SchemaContext {
  /** Resolves `#/components/schemas/X` references. */
  readonly resolve: (ref: string) => JsonSchema | undefined
  /**
   * Known-good values by field name (an embed id that exists, a metric of the dashboard, a
   * workspace name …), so that valid-looking requests reach past the lookups.
   */
  readonly pool: (field: string) => readonly unknown[] | undefined
  /** Whole values known to be good (request bodies the fixture knows are served), if any. */
  readonly examples?: readonly unknown[]
}

const MAX_DEPTH = 6
const ABSENT = Symbol('absent')

/**
 * Values that satisfy `schema` (most of the time: a pooled value may break a pattern, which
 * is then just another invalid input). Strings of a field with a pool prefer the pool.
 */
export function validValue(schema: JsonSchema, ctx: SchemaContext, field = '', depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref) {
    const target = ctx.resolve(schema.$ref)
    return target ? validValue(target, ctx, field, depth) : anyJson
  }
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (schema.enum) return fc.constantFrom(...schema.enum)
  const pooled = ctx.pool(field)
  const withPool = (arb: fc.Arbitrary<unknown>) =>
    pooled && pooled.length > 0
      ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pooled) }, { weight: 1, arbitrary: arb })
      : arb
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives) {
    if (alternatives.length === 0) return anyJson
    return withPool(fc.oneof(...alternatives.map((s) => validValue(s, ctx, field, depth))))
  }
  if (schema.allOf && schema.allOf.length > 0) {
    return validValue(Object.assign({}, ...schema.allOf) as JsonSchema, ctx, field, depth)
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'string':
      return withPool(stringOf(schema))
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1e6)
      const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1e6)
      return withPool(
        type === 'integer'
          ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
          : fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
      )
    }
    case 'boolean':
      return withPool(fc.boolean())
    case 'null':
      return fc.constant(null)
    case 'array': {
      if (depth > MAX_DEPTH) return fc.constant([])
      const minLength = schema.minItems ?? 0
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 3, 3))
      return withPool(
        fc.array(schema.items ? validValue(schema.items, ctx, field, depth + 1) : anyJson, { minLength, maxLength }),
      )
    }
    case 'object':
      return withPool(objectOf(schema, ctx, depth))
    default:
      // `{}`: anything at all, the pool first
      return withPool(depth > MAX_DEPTH ? fc.constant(null) : anyJson)
  }
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40))
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern)
    return fc
      .stringMatching(pattern)
      .filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY))
  }
  if (schema.format === 'email') return fc.emailAddress()
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString())
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }) },
  )
}

function objectOf(schema: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {}
  const required = new Set(schema.required ?? [])
  // optional fields are left out two times in three, so that the required ones decide more often
  const fields = Object.entries(properties).map(([name, sub]) => {
    const value = validValue(sub, ctx, name, depth + 1)
    return fc.tuple(
      fc.constant(name),
      required.has(name)
        ? value
        : fc.oneof({ weight: 2, arbitrary: fc.constant(ABSENT) }, { weight: 1, arbitrary: value }),
    )
  })
  const declared = fc
    .tuple(...fields)
    .map((pairs) => Object.fromEntries(pairs.filter(([, v]) => v !== ABSENT)) as Record<string, unknown>)
  const extra = schema.additionalProperties
  if (extra === undefined || extra === false || Object.keys(properties).length > 0) return declared
  // a record (Type.Record): keys from the pool of the record's own name, values by schema
  const value = extra === true ? anyJson : validValue(extra, ctx, '', depth + 1)
  return fc
    .tuple(declared, fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), hostileString), value, { maxKeys: 3 }))
    .map(([a, b]) => ({ ...b, ...a }))
}

/** A value of the wrong JSON type for `schema`. */
export function wrongType(schema: JsonSchema): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  const all: [string, fc.Arbitrary<unknown>][] = [
    ['string', fc.oneof(fc.string({ maxLength: 10 }), hostileString)],
    ['number', fc.oneof(fc.double(), fc.integer())],
    ['integer', fc.double({ min: -10, max: 10 }).filter((n) => !Number.isInteger(n))],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['object', fc.object({ maxDepth: 2, maxKeys: 3 })],
    ['array', fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })],
  ]
  const others = all.filter(([t]) => t !== type && !(type === 'number' && t === 'integer')).map(([, a]) => a)
  return fc.oneof(...others)
}

/**
 * An invalid variant of a valid value: a required field dropped, an undeclared field added,
 * one field of the wrong type, hostile or huge, or nested far too deep. Mutations pick a
 * random node of the value, so they reach nested objects too.
 */
export function mutated(schema: JsonSchema, ctx: SchemaContext): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      validValue(schema, ctx),
      fc.constantFrom('drop', 'extra', 'wrongType', 'hostile', 'null', 'huge', 'deep', 'replace'),
      fc.nat(),
      fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'clientId', 'tenant', 'sql')),
      anyJson,
      hostileString,
    )
    .map(([value, kind, pick, key, json, hostile]) => {
      const copy = cloneOrSame(value)
      const nodes = containers(copy)
      if (nodes.length === 0 || kind === 'replace') return kind === 'replace' ? json : hostile
      const node = nodes[pick % nodes.length] as Record<string, unknown> | unknown[]
      const keys = Object.keys(node)
      const at = keys.length > 0 ? (keys[pick % keys.length] as string) : key
      const set = (v: unknown) => {
        if (Array.isArray(node)) node[Number(at) || 0] = v
        else Object.defineProperty(node, at, { value: v, enumerable: true, writable: true, configurable: true })
      }
      switch (kind) {
        case 'drop':
          if (Array.isArray(node)) node.splice(Number(at) || 0, 1)
          else delete node[at]
          break
        case 'extra':
          if (Array.isArray(node)) node.push(json)
          else Object.defineProperty(node, key, { value: json, enumerable: true, writable: true, configurable: true })
          break
        case 'wrongType':
          set(typeof (node as Record<string, unknown>)[at] === 'string' ? pick : String(pick))
          break
        case 'hostile':
          set(hostile)
          break
        case 'null':
          set(null)
          break
        case 'huge':
          set(pick % 2 === 0 ? 'z'.repeat(200_000) : Array.from({ length: 20_000 }, (_, i) => `v${i}`))
          break
        case 'deep':
          set(deepValue(2_000 + (pick % 8_000)))
          break
      }
      return copy
    })
}

/** A copy to mutate; a value too deep to clone is mutated in place (fast-check made it for us alone). */
function cloneOrSame<T>(value: T): T {
  try {
    return structuredClone(value)
  } catch {
    return value
  }
}

function deepValue(depth: number): unknown {
  let value: unknown = 'leaf'
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value }
  return value
}

/** Every object and array inside a value (the value itself first). */
function containers(value: unknown, out: unknown[] = [], depth = 0): unknown[] {
  if (value === null || typeof value !== 'object' || depth > 8) return out
  out.push(value)
  for (const child of Object.values(value)) containers(child, out, depth + 1)
  return out
}
