import { PATTERN_WORDING, worded } from '@strata/contract/wording'
import {
  type FieldLocation,
  type FieldProblem,
  fieldPath,
  joinPath,
  MAX_FIELDS,
  missingFields,
  NOT_ALLOWED,
  shorten,
} from './fields.js'
import { closestName } from './names.js'

/**
 * Validation errors of a schema (ajv's on routes, TypeBox's in services and the dashboard
 * document) as field problems (fields.ts): both validators read the same way.
 */

/**
 * How the app runs ajv on routes. allErrors stays off: with it, a body of many bad items
 * allocates an error per item (ajv's security notes; 1 MiB of them is ~60 MB and ~0.5 s).
 * verbose stays off too: it would hand each error the failing object and its schema, but its
 * generated code costs ~8 µs on every valid request (bench/README.md); withAjvContext finds
 * both from the route's schema and the value, on the failure path only.
 */
export const AJV_OPTIONS = { removeAdditional: false, coerceTypes: false, allErrors: false, verbose: false } as const

/** An error as ajv and TypeBox report it, with the object that failed and its schema (withAjvContext, withContext). */
export interface SchemaError {
  readonly keyword: string
  readonly instancePath: string
  readonly schemaPath?: string
  readonly params?: Record<string, unknown>
  readonly message?: string
  /** The schema holding the keyword (withAjvContext for ajv, withContext for TypeBox). */
  readonly parentSchema?: unknown
  /** The value at instancePath (withAjvContext for ajv, withContext for TypeBox). */
  readonly data?: unknown
}

// The wording of string patterns (`worded(pattern, 'host[:port]')`) lives in @strata/contract,
// whose schemas register theirs there too: one registry for every schema the server checks.
export { PATTERN_WORDING, worded }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The problems of one validation failure. ajv stops at the first failing keyword (the app
 * runs it with allErrors off); TypeBox lists up to 8 errors. Both are read the same way: the
 * first failure is reported, completed from the schema and the value where that is cheap and
 * bounded (every missing required field and every undeclared field of that one object), and
 * a union of literals is one problem listing the values it accepts.
 */
export function schemaProblems(errors: readonly SchemaError[], location: FieldLocation, root = ''): FieldProblem[] {
  const first = errors[0]
  if (first === undefined) return [{ in: location, path: root, problem: 'is invalid' }]
  const union = errors.find((u) => (u.keyword === 'anyOf' || u.keyword === 'oneOf') && inBranchOf(first, u))
  if (union) return unionProblems(union, errors, location, root)
  return problemsOf(first, location, root)
}

/**
 * TypeBox's errors with the failing object and its schema, as withAjvContext gives ajv's: TypeBox points at the schema holding each
 * keyword; resolve it, and the value checked, so that both validators are read the same way.
 */
export function withContext(
  errors: readonly Omit<SchemaError, 'parentSchema' | 'data'>[],
  schema: unknown,
  value: unknown,
): SchemaError[] {
  const resolved: SchemaError[] = []
  for (const e of errors) {
    if (e.keyword === 'boolean' && /\/additionalProperties$/.test(e.schemaPath ?? '')) {
      // TypeBox reports an undeclared field twice: as `boolean` (schema `false`) at the field,
      // and as `additionalProperties` at its object; keep one, at the object, as ajv does
      const instancePath = e.instancePath.slice(0, e.instancePath.lastIndexOf('/'))
      const schemaPath = (e.schemaPath ?? '').replace(/\/additionalProperties$/, '')
      if (errors.some((x) => x.keyword === 'additionalProperties' && x.instancePath === instancePath)) continue
      const name = e.instancePath
        .slice(instancePath.length + 1)
        .replaceAll('~1', '/')
        .replaceAll('~0', '~')
      resolved.push({
        keyword: 'additionalProperties',
        schemaPath,
        instancePath,
        params: { additionalProperties: [name] },
        parentSchema: valueAt(schema, schemaPath.replace(/^#/, '')),
        data: valueAt(value, instancePath),
      })
      continue
    }
    resolved.push({
      ...e,
      parentSchema: valueAt(schema, (e.schemaPath ?? '').replace(/^#/, '')),
      data: valueAt(value, e.instancePath),
    })
  }
  // TypeBox stops at 8 errors: a union of 8 literals fills them before its own `anyOf`
  // error; put that error back, so that the union is read as one
  for (const e of [...resolved]) {
    const union = /^(.*)\/(anyOf|oneOf)\/\d+$/.exec(e.schemaPath ?? '')
    if (!union || !['const', 'enum', 'type'].includes(e.keyword)) continue
    const schemaPath = union[1] as string
    if (resolved.some((u) => u.schemaPath === schemaPath && u.instancePath === e.instancePath)) continue
    resolved.push({
      keyword: union[2] as string,
      schemaPath,
      instancePath: e.instancePath,
      params: {},
      parentSchema: valueAt(schema, schemaPath.replace(/^#/, '')),
      data: e.data,
    })
  }
  return resolved
}

/**
 * ajv's errors with what its `verbose` option would add: the schema holding each keyword (the
 * keyword's schemaPath without its last step) and the value at the error's instancePath.
 */
export function withAjvContext(errors: readonly SchemaError[], schema: unknown, value: unknown): SchemaError[] {
  return errors.map((e) => ({
    ...e,
    parentSchema: e.parentSchema ?? valueAt(schema, (e.schemaPath ?? '').replace(/^#/, '').replace(/\/[^/]*$/, '')),
    data: e.data ?? valueAt(value, e.instancePath),
  }))
}

/** The value at a JSON Pointer, or undefined. */
function valueAt(value: unknown, pointer: string): unknown {
  let here = value
  for (const raw of pointer.split('/').slice(1)) {
    if (typeof here !== 'object' || here === null) return undefined
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    here = Object.hasOwn(here, key) ? (here as Record<string, unknown>)[key] : undefined
  }
  return here
}

/** Whether `e` comes from a branch of the union error `u` (its schema path lies under u's). */
function inBranchOf(e: SchemaError, u: SchemaError): boolean {
  if (e === u) return true
  const base = (u.schemaPath ?? '').replace(/\/(anyOf|oneOf)$/, '')
  return e.instancePath.startsWith(u.instancePath) && (e.schemaPath ?? '').startsWith(`${base}/`)
}

function unionProblems(
  union: SchemaError,
  list: readonly SchemaError[],
  location: FieldLocation,
  root: string,
): FieldProblem[] {
  const branches = list.filter((e) => e !== union && inBranchOf(e, union))
  const path = fieldPath(union.instancePath, root)
  // a union of literals (TypeBox's Type.Union of Type.Literal): its values, from the schema
  const literals = literalValues(union.parentSchema, union.keyword)
  if (literals) return [oneOf(location, path, literals)]
  const flat = branches.every(
    (e) => e.instancePath === union.instancePath && ['const', 'enum', 'type'].includes(e.keyword),
  )
  if (flat && branches.length > 0) {
    const values = branches.flatMap((e) =>
      e.keyword === 'const' ? [e.params?.allowedValue] : e.keyword === 'enum' ? asArray(e.params?.allowedValues) : [],
    )
    const types = branches.flatMap((e) => (e.keyword === 'type' ? asArray(e.params?.type).map(String) : []))
    if (types.length === 0) return [oneOf(location, path, values)]
    const alternatives = unique([...values.map(valueText), ...types.map(typeText)])
    return [{ in: location, path, problem: `must be ${alternatives.join(' or ')}` }]
  }
  // a union of objects: the branch that got furthest says most
  const deepest = [...branches].sort((a, b) => depth(b) - depth(a))[0]
  return deepest ? problemsOf(deepest, location, root) : [{ in: location, path, problem: 'is invalid' }]
}

/** The values of a union whose every branch is a `const` or an `enum`; undefined otherwise. */
function literalValues(schema: unknown, keyword: string): unknown[] | undefined {
  const values: unknown[] = []
  for (const branch of isRecord(schema) ? asArray(schema[keyword]) : []) {
    if (isRecord(branch) && Object.hasOwn(branch, 'const')) values.push(branch.const)
    else if (isRecord(branch) && Array.isArray(branch.enum)) values.push(...branch.enum)
    else return undefined
  }
  return values.length > 0 ? values : undefined
}

const depth = (e: SchemaError): number => e.instancePath.split('/').length

function oneOf(location: FieldLocation, path: string, values: readonly unknown[]): FieldProblem {
  return {
    in: location,
    path,
    problem: `must be one of: ${values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`,
    allowedValues: values,
  }
}

function problemsOf(e: SchemaError, location: FieldLocation, root: string): FieldProblem[] {
  const path = fieldPath(e.instancePath, root)
  switch (e.keyword) {
    case 'required':
    case 'additionalProperties':
      return objectProblems(e, location, root)
    case 'const':
      return [oneOf(location, path, [e.params?.allowedValue])]
    case 'enum':
      return [oneOf(location, path, asArray(e.params?.allowedValues))]
    default:
      return [{ in: location, path, problem: wording(e) }]
  }
}

/**
 * A `required` or `additionalProperties` failure: everything wrong with the keys of that one
 * object, from its schema and its value (ajv stops at the first key): its undeclared fields,
 * each with the close declared name it may have meant (a misspelt required field shows up
 * both as undeclared and as missing; a field sent outside its object is pointed to it), then
 * its missing required fields.
 */
function objectProblems(e: SchemaError, location: FieldLocation, root: string): FieldProblem[] {
  const objectPath = fieldPath(e.instancePath, root)
  const parent = isRecord(e.parentSchema) ? e.parentSchema : {}
  const data = isRecord(e.data) ? e.data : undefined
  const declared = new Set(isRecord(parent.properties) ? Object.keys(parent.properties) : [])
  const closed = parent.additionalProperties === false && parent.patternProperties === undefined && declared.size > 0
  const reportedExtra = [...asArray(e.params?.additionalProperties), e.params?.additionalProperty].filter(isString)
  const reportedMissing = [...asArray(e.params?.requiredProperties), e.params?.missingProperty].filter(isString)
  const extra = unique([...reportedExtra, ...(data && closed ? Object.keys(data).filter((k) => !declared.has(k)) : [])])
  const required = asArray(parent.required).filter(isString)
  const missing = unique([...(data ? required.filter((k) => !Object.hasOwn(data, k)) : []), ...reportedMissing])
  const free = [...declared].filter((k) => !data || !Object.hasOwn(data, k))
  const undeclared = extra.slice(0, MAX_FIELDS).map((name): FieldProblem => {
    const suggestion = closestName(name, free.length > 0 ? free : declared) ?? oneLevelDown(name, parent)
    return {
      in: location,
      path: joinPath(objectPath, shorten(name)),
      problem: NOT_ALLOWED,
      ...(suggestion ? { suggestion } : {}),
    }
  })
  return [...undeclared, ...missingFields(objectPath, missing, location)]
}

/**
 * A field sent one level too high: `{ "datasourceId": … }` for `{ "input": { "datasourceId": … } }`.
 * The path from the object of the declared object field holding that name (or a close one).
 */
function oneLevelDown(name: string, parent: Record<string, unknown>): string | undefined {
  if (!isRecord(parent.properties)) return undefined
  for (const [field, schema] of Object.entries(parent.properties)) {
    if (!isRecord(schema) || !isRecord(schema.properties)) continue
    const inner = Object.keys(schema.properties)
    const match = inner.includes(name) ? name : closestName(name, inner)
    if (match !== undefined) return joinPath(field, match)
  }
  return undefined
}

/**
 * The unit of a refused number when its schema declares one (`'x-unit'`): a value off by a
 * factor of 1000 is the usual mistake, so milliseconds are also said in seconds.
 */
function inUnit(e: SchemaError): string {
  const unit = isRecord(e.parentSchema) ? e.parentSchema['x-unit'] : undefined
  if (typeof unit !== 'string') return ''
  if (unit === 'milliseconds' && typeof e.data === 'number') {
    return `: it is in milliseconds, so ${e.data} is ${e.data / 1000} s`
  }
  return ` ${unit}`
}

/** The end of a sentence for one keyword, the same whichever validator reported it. */
function wording(e: SchemaError): string {
  const p = e.params ?? {}
  const limit = p.limit
  switch (e.keyword) {
    case 'type':
      return `must be ${asArray(p.type).map(String).map(typeText).join(' or ')}`
    case 'minLength':
      return limit === 1 ? 'must not be empty' : `must be at least ${limit} characters long`
    case 'maxLength':
      return `must be at most ${limit} characters long`
    case 'minimum':
      return `must be at least ${limit}${inUnit(e)}`
    case 'maximum':
      return `must be at most ${limit}${inUnit(e)}`
    case 'exclusiveMinimum':
      return `must be greater than ${limit}`
    case 'exclusiveMaximum':
      return `must be less than ${limit}`
    case 'minItems':
      return `must have at least ${limit} item${limit === 1 ? '' : 's'}`
    case 'maxItems':
      return `must have at most ${limit} items`
    case 'minProperties':
      return `must have at least ${limit} field${limit === 1 ? '' : 's'}`
    case 'maxProperties':
      return `must have at most ${limit} fields`
    case 'pattern': {
      const worded = PATTERN_WORDING.get(String(p.pattern))
      return worded ? `must be ${worded}` : `must match the pattern ${String(p.pattern)}`
    }
    case 'format':
      return `must be a valid ${String(p.format)}`
    case 'uniqueItems':
      return 'must not hold the same item twice'
    default:
      return e.message ?? 'is invalid'
  }
}

const TYPE_TEXT: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
}
const typeText = (type: string): string => TYPE_TEXT[type] ?? type
const valueText = (v: unknown): string => JSON.stringify(v)

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v])
const isString = (v: unknown): v is string => typeof v === 'string'
const unique = <T>(xs: readonly T[]): T[] => [...new Set(xs)]
