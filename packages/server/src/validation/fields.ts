import { type ApiError, badRequest } from '../errors.js'

/**
 * One way of naming a field in a 400, whichever validator found the problem (Fastify's ajv on
 * a route, TypeBox in a service, hand-written checks):
 *
 * - body fields: a dotted path from the body's root, array indexes in brackets,
 *   `accessSettings.isAllowUnderlyingData`, `params.allowedEmbeds[0]`;
 * - query string fields: `query string "pageNumber"`;
 * - path parameters: `:embedId`;
 * - headers: `header "x-name"`.
 *
 * A validation failure also lists its fields in `error.details.fields` as
 * `{ in, path, problem, suggestion?, allowedValues? }`.
 */

/** Where a field is: the part of the request Fastify validated. */
export type FieldLocation = 'body' | 'query' | 'path' | 'header'

export interface FieldProblem {
  readonly in: FieldLocation
  /** Dotted path from the root of its part (`accessSettings.joinModel`; `pageNumber`). */
  readonly path: string
  /** What is wrong, as the end of a sentence: `is required`, `must be one of: a, b`. */
  readonly problem: string
  /** A declared field close to an undeclared one (a typo or a case slip). */
  readonly suggestion?: string
  /** The values an enum or literal union accepts. */
  readonly allowedValues?: readonly unknown[]
}

/** At most this many fields are named in one answer (a body may hold thousands of bad keys). */
export const MAX_FIELDS = 20
/** Longer field names are shortened where they are quoted (a key may be as long as the body). */
export const MAX_NAME = 64
/** A message names problems up to about this many characters (then: `and N more`). */
const MAX_MESSAGE = 400

const REQUIRED = 'is required'
export const NOT_ALLOWED = 'is not an allowed field'

const LOCATION: Record<string, FieldLocation> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
}

/** Fastify's validation context (`body`, `querystring`, `params`, `headers`) as a field location. */
export const locationOf = (context: string | undefined): FieldLocation => LOCATION[context ?? 'body'] ?? 'body'

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/

export const shorten = (name: string): string => (name.length > MAX_NAME ? `${name.slice(0, MAX_NAME)}…` : name)

/** Appends one key or index to a dotted path: `a` + `b` → `a.b`, `a` + 0 → `a[0]`. */
export function joinPath(base: string, segment: string | number): string {
  if (typeof segment === 'number' || /^\d+$/.test(segment)) return `${base}[${segment}]`
  if (!PLAIN_KEY.test(segment)) return `${base}[${JSON.stringify(shorten(segment))}]`
  return base === '' ? segment : `${base}.${segment}`
}

/**
 * The one conversion of a JSON Pointer (ajv's and TypeBox's `instancePath`) into a field path:
 * `/params/allowedEmbeds/0` → `params.allowedEmbeds[0]`, under `root` when given
 * (`accessSettings` + `/joinModel` → `accessSettings.joinModel`).
 */
export function fieldPath(pointer: string, root = ''): string {
  if (pointer === '') return root
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<string>((acc, p) => joinPath(acc, p), root)
}

/** How a message names a field: `accessSettings.x`, `query string "name"`, `:embedId`, `the body`. */
export function fieldLabel(location: FieldLocation, path: string): string {
  switch (location) {
    case 'body':
      return path === '' ? 'the body' : path
    case 'query':
      return path === '' ? 'the query string' : `query string "${path}"`
    case 'path':
      return path === '' ? 'the path' : `:${path}`
    case 'header':
      return path === '' ? 'the headers' : `header "${path}"`
  }
}

/** Problems for the fields `names` missing from the object at `objectPath`. */
export function missingFields(objectPath: string, names: readonly string[], location: FieldLocation = 'body') {
  return names.map((name): FieldProblem => ({ in: location, path: joinPath(objectPath, name), problem: REQUIRED }))
}

/**
 * One readable sentence for a list of problems: the missing fields of one object are named
 * together (`accessSettings is missing required fields: a, b`), the rest one by one.
 */
export function describeProblems(problems: readonly FieldProblem[]): string {
  const parts: { text: string; count: number }[] = []
  const shown = problems.slice(0, MAX_FIELDS)
  for (let i = 0; i < shown.length; ) {
    const p = shown[i] as FieldProblem
    if (p.problem === REQUIRED) {
      const parent = parentOf(p.path)
      let j = i
      while (j < shown.length && shown[j]?.problem === REQUIRED && parentOf((shown[j] as FieldProblem).path) === parent)
        j++
      if (j - i > 1) {
        const names = shown.slice(i, j).map((q) => lastSegment(q.path))
        parts.push({
          text: `${fieldLabel(p.in, parent)} is missing required fields: ${names.join(', ')}`,
          count: j - i,
        })
        i = j
        continue
      }
    }
    const suggestion = p.suggestion ? ` (did you mean "${p.suggestion}"?)` : ''
    parts.push({ text: `${fieldLabel(p.in, p.path)} ${p.problem}${suggestion}`, count: 1 })
    i++
  }
  // the message stays short; details.fields has them all (up to MAX_FIELDS)
  let text = ''
  let told = 0
  for (const part of parts) {
    if (told > 0 && text.length + part.text.length > MAX_MESSAGE) break
    text += (told > 0 ? '; ' : '') + part.text
    told += part.count
  }
  const more = problems.length - told
  if (more > 0) text += `; and ${more} more (see error.details.fields)`
  // `the body …` → `The body …`; a field name keeps its case
  return text.startsWith('the ') ? `T${text.slice(1)}` : text
}

/** The ApiError of a list of problems: a readable message, the list in `details.fields`. */
export function fieldsError(
  problems: readonly FieldProblem[],
  make: (message: string, details: Record<string, unknown>) => ApiError = badRequest,
): ApiError {
  return make(describeProblems(problems), { fields: problems.slice(0, MAX_FIELDS) })
}

function parentOf(path: string): string {
  const m = /^(.*?)(?:\.[^.[\]]+|\[[^\]]*\])$/.exec(path)
  return m ? (m[1] as string) : ''
}

function lastSegment(path: string): string {
  const parent = parentOf(path)
  const rest = path.slice(parent.length)
  return rest.startsWith('.') ? rest.slice(1) : rest
}
