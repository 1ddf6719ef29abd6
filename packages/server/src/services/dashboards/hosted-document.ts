import {
  DashboardDocumentSchema,
  DashboardFilterSchema,
  LayoutItemSchema,
  MetricSchema,
} from '@strata/contract/document'
import { Compile } from 'typebox/compile'
import { fieldPath, joinPath } from '../../validation/fields.js'

/**
 * A dashboard exported by the hosted service this API comes from (or a document someone wrote
 * after its export example: `{ layout, filters, gridMargin }`), read into Strata's dashboard
 * document (docs/dashboard-document.md#documents-from-the-hosted-service).
 *
 * A document with only Strata's keys, `name` and `metrics` among them, is Strata's own and is
 * returned untouched: it is validated strictly, so an export round-trips exactly. Any other
 * document is the hosted service's: what fits Strata's document is kept, what does not is left
 * out and named in a warning (a path, then why), never dropped silently. What is kept is then
 * validated as any document is (against the schema and the workspace's model).
 */

const OURS = new Set(Object.keys(DashboardDocumentSchema.properties))

/** Why a top-level key of the hosted service's export has no place in Strata's document. */
const NO_PLACE: Readonly<Record<string, string>> = {
  gridMargin: "Strata's grid places items on 12 columns with fixed spacing",
}

/** At most this many warnings are listed (then one more: how many were left out). */
export const MAX_WARNINGS = 100

const fits = {
  metric: Compile(MetricSchema),
  filter: Compile(DashboardFilterSchema),
  layout: Compile(LayoutItemSchema),
}
const LAYOUT_KEYS = new Set(Object.keys(LayoutItemSchema.properties))

export interface ReadDocument {
  /** Strata's document (still to be validated). */
  readonly document: unknown
  /** What was left out, each `path: why`; empty for Strata's own document. */
  readonly warnings: readonly string[]
}

type Json = Record<string, unknown>
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x)

/** Strata's own document: only its keys, and the two it requires. */
export function isStrataDocument(doc: Json): boolean {
  return 'name' in doc && 'metrics' in doc && Object.keys(doc).every((key) => OURS.has(key))
}

/** The first reason an item does not fit its schema, as `path problem`. */
function misfit(
  check: { Errors(value: unknown): Iterable<{ instancePath: string; message: string }> },
  item: unknown,
  at: string,
) {
  const [first] = check.Errors(item)
  if (first === undefined) return 'does not fit'
  const where = fieldPath(first.instancePath, at)
  return `${where} ${first.message}`
}

/**
 * Reads `doc` (the request's `importDashboardData`, at `root`) as Strata's document. `fallbackName`
 * names a hosted-service document that has no `name`.
 */
export function readDocument(doc: unknown, fallbackName: string, root = 'importDashboardData'): ReadDocument {
  if (!isObject(doc) || isStrataDocument(doc)) return { document: doc, warnings: [] }
  const warnings: string[] = []
  const warn = (path: string, why: string) => warnings.push(`${path}: ${why}`)
  const out: Json = {}
  for (const [key, value] of Object.entries(doc)) {
    if (OURS.has(key)) out[key] = value
    else warn(joinPath(root, key), `${NO_PLACE[key] ?? "not part of Strata's dashboard document"}; not imported`)
  }
  if (!('name' in doc)) out.name = fallbackName
  out.metrics = keepFitting(doc.metrics ?? [], fits.metric, joinPath(root, 'metrics'), warn, (m) =>
    isObject(m) && typeof m.metricId === 'string' ? ` (metric ${m.metricId})` : '',
  )
  if ('filters' in doc) out.filters = keepFitting(doc.filters, fits.filter, joinPath(root, 'filters'), warn)
  if ('layout' in doc) {
    const imported = new Set(
      (Array.isArray(out.metrics) ? out.metrics : []).map((m) => (isObject(m) ? m.metricId : undefined)),
    )
    out.layout = layoutOf(doc.layout, imported, joinPath(root, 'layout'), warn)
  }
  return { document: out, warnings: capped(warnings) }
}

/** The items of a list that fit `check`; each other one named in a warning. Not a list: left to validation. */
function keepFitting(
  list: unknown,
  check: { Check(value: unknown): boolean } & Parameters<typeof misfit>[0],
  path: string,
  warn: (path: string, why: string) => void,
  label: (item: unknown) => string = () => '',
): unknown {
  if (!Array.isArray(list)) return list
  return list.filter((item, i) => {
    if (check.Check(item)) return true
    const at = joinPath(path, i)
    warn(`${at}${label(item)}`, `not in Strata's form (${misfit(check, item, at)}); not imported`)
    return false
  })
}

/**
 * Layout items: `{ metricId, x, y, w, h }`; an item keyed `i` (the grid library's item key) is
 * read as naming its metric by `i`. Other keys are named in a warning; an item of a metric that
 * was not imported is left out.
 */
function layoutOf(
  list: unknown,
  imported: ReadonlySet<unknown>,
  path: string,
  warn: (path: string, why: string) => void,
): unknown {
  if (!Array.isArray(list)) return list
  const kept: unknown[] = []
  list.forEach((item, i) => {
    const at = joinPath(path, i)
    if (!isObject(item)) {
      warn(at, 'not a layout item (an object with metricId, x, y, w and h); not imported')
      return
    }
    const named = item.metricId === undefined && typeof item.i === 'string' ? { ...item, metricId: item.i } : item
    const extra = Object.keys(named).filter((k) => !LAYOUT_KEYS.has(k) && !(k === 'i' && named.metricId === item.i))
    if (extra.length > 0) warn(at, `${extra.join(', ')}: no place in Strata's layout item; not imported`)
    const entry = Object.fromEntries(Object.entries(named).filter(([k]) => LAYOUT_KEYS.has(k)))
    if (!fits.layout.Check(entry)) {
      warn(at, `not in Strata's form (${misfit(fits.layout, entry, at)}); not imported`)
    } else if (!imported.has(entry.metricId)) {
      warn(at, `metric ${String(entry.metricId)} was not imported; not placed`)
    } else kept.push(entry)
  })
  return kept
}

function capped(warnings: string[]): string[] {
  if (warnings.length <= MAX_WARNINGS) return warnings
  return [...warnings.slice(0, MAX_WARNINGS), `… and ${warnings.length - MAX_WARNINGS} more left out`]
}
