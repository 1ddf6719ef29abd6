/**
 * Index mappings (`GET <index>/_mapping`) → columns, and the fields a request really uses.
 *
 * Types: keyword, constant_keyword, wildcard, text, match_only_text, ip, version → string;
 * long, integer, short, byte, unsigned_long → integer; double, float, half_float, scaled_float →
 * number; date, date_nanos → datetime (a `date` whose format is date-only, e.g. `yyyy-MM-dd`,
 * `date`, `strict_date` → date); boolean; nested, flattened and object → json (an object's leaf
 * fields are also columns, by their dotted path, as the query DSL names them).
 *
 * A `text` field is analysed: it cannot be grouped, sorted or compared exactly. When it has a
 * `keyword` sub-field (the default dynamic mapping of strings: `name` + `name.keyword`), the
 * column keeps the field's name and every request reads the sub-field instead (`keywordFields`).
 * Without one, grouping it is refused by the engine with its own message.
 */
import type { ColumnInfo, DataType, TableInfo } from '../types.js'

interface Property {
  readonly type?: string
  readonly format?: string
  readonly properties?: Record<string, Property>
  readonly fields?: Record<string, Property>
}

/** One field of an index: its type and, for text, the keyword sub-field requests use. */
export interface FieldInfo {
  readonly type: string
  readonly dataType: DataType
  readonly keyword?: string
}

const TYPES: Record<string, DataType> = {
  keyword: 'string',
  constant_keyword: 'string',
  wildcard: 'string',
  text: 'string',
  match_only_text: 'string',
  ip: 'string',
  version: 'string',
  long: 'integer',
  integer: 'integer',
  short: 'integer',
  byte: 'integer',
  unsigned_long: 'integer',
  double: 'number',
  float: 'number',
  half_float: 'number',
  scaled_float: 'number',
  date: 'datetime',
  date_nanos: 'datetime',
  boolean: 'boolean',
  nested: 'json',
  flattened: 'json',
  object: 'json',
}

const DATE_ONLY = /^(yyyy-MM-dd|date|strict_date|basic_date|strict_basic_date)$/

function dataTypeOf(p: Property): DataType {
  const type = p.type ?? 'object'
  if (type === 'date' && p.format !== undefined && p.format.split('||').every((f) => DATE_ONLY.test(f.trim()))) {
    return 'date'
  }
  return TYPES[type] ?? 'unknown'
}

/** Every field of one mapping by dotted path, in mapping order. */
export function flatten(properties: Record<string, Property> | undefined, prefix = ''): Map<string, FieldInfo> {
  const out = new Map<string, FieldInfo>()
  for (const [name, p] of Object.entries(properties ?? {})) {
    const path = `${prefix}${name}`
    const type = p.type ?? 'object'
    const keyword = Object.entries(p.fields ?? {}).find(([, sub]) => sub.type === 'keyword')?.[0]
    out.set(path, {
      type,
      dataType: dataTypeOf(p),
      ...(type === 'text' && keyword !== undefined ? { keyword: `${path}.${keyword}` } : {}),
    })
    // an object's leaves are fields of their own; a nested document is not (it needs nested queries)
    if (type === 'object' && p.properties) for (const [k, v] of flatten(p.properties, `${path}.`)) out.set(k, v)
  }
  return out
}

type MappingResponse = Record<string, { mappings?: { properties?: Record<string, Property> } }>

/** The fields of every index of a `_mapping` answer, merged (a pattern or an alias names several). */
export function fieldsOf(response: unknown): Map<string, FieldInfo> {
  const out = new Map<string, FieldInfo>()
  for (const index of Object.values(response as MappingResponse)) {
    for (const [k, v] of flatten(index.mappings?.properties)) if (!out.has(k)) out.set(k, v)
  }
  return out
}

/** `_mapping` → one table per index (hidden `.` indices left out); schema is '' (no namespaces). */
export function tablesOf(response: unknown): TableInfo[] {
  return Object.entries(response as MappingResponse)
    .filter(([name]) => !name.startsWith('.'))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, index]) => ({
      schema: '',
      name,
      columns: columnsOf(flatten(index.mappings?.properties)),
    }))
}

/** Fields as columns: a text field with a keyword sub-field names it in its native type. */
export function columnsOf(fields: ReadonlyMap<string, FieldInfo>): ColumnInfo[] {
  return [...fields].map(([name, info]) => ({
    name,
    dataType: info.dataType,
    nativeType: info.keyword === undefined ? info.type : `text (${info.keyword})`,
    nullable: true,
  }))
}

const FIELD_KEYED = new Set(['term', 'terms', 'range', 'wildcard', 'prefix'])

/**
 * The request with every exact-value use of a text field (term/terms/range/wildcard keys,
 * `field` of aggregations and exists, sort keys) moved to its keyword sub-field. Rebuilt with
 * Object.fromEntries: a field named `__proto__` stays a plain key.
 */
export function keywordFields(node: unknown, fields: ReadonlyMap<string, FieldInfo>, parent = ''): unknown {
  const field = (name: string) => fields.get(name)?.keyword ?? name
  if (Array.isArray(node)) {
    return node.map((x) =>
      parent === 'sort' && x !== null && typeof x === 'object'
        ? Object.fromEntries(Object.entries(x).map(([k, v]) => [field(k), v]))
        : keywordFields(x, fields, parent === 'sort' ? '' : parent),
    )
  }
  if (node === null || typeof node !== 'object') return node
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => {
      // a query keyed by its field (`terms: { status: [...] }`), not an aggregation or composite
      // source naming it (`terms: { field: 'status' }`)
      const isQuery =
        v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as { field?: unknown }).field !== 'string'
      if (FIELD_KEYED.has(k) && isQuery) {
        return [k, Object.fromEntries(Object.entries(v).map(([f, x]) => [field(f), x]))]
      }
      if (k === 'field' && typeof v === 'string') return [k, field(v)]
      return [k, keywordFields(v, fields, k)]
    }),
  )
}
