import { chartMisfit, isShapedChart } from '@strata/contract/chart-fit'
import type {
  Aggregate,
  ChartType,
  ColumnFormat,
  ComparisonPeriod,
  MetricDefinition,
  MetricQuery,
  Model,
  ModelColumn,
  ModelTable,
  Operator,
  TimeGrain,
} from '../../api/types.js'
import { isNumericType } from '../../lib/numbers.js'

/**
 * The metric builder's state and the pure rules around it: defaults (aggregate, time grain,
 * operator, chart), output names, validation, and the conversion to and from the metric
 * definition the server takes. No DOM here: it is unit-tested on its own.
 */

export type FieldKind = 'number' | 'time' | 'boolean' | 'text'
export type Visibility = 'private' | 'shared'

export interface MeasureItem {
  readonly key: number
  /** null: count of rows. */
  readonly column: string | null
  /** A joined table's column (absent: the query's table). */
  readonly table?: string
  readonly aggregate: Aggregate
  /** The output name a definition gave it (kept on edit, so formats and chart axes still match). */
  readonly name?: string
}
export interface DimensionItem {
  readonly key: number
  readonly column: string
  readonly table?: string
  readonly timeGrain?: TimeGrain
  readonly name?: string
}
export interface FilterItem {
  readonly key: number
  readonly column: string
  readonly table?: string
  readonly operator: Operator
  /** As typed; `in`/`not-in` take a comma-separated list. */
  readonly value: string
  /** The upper bound of `between`. */
  readonly value2: string
}
export interface SortChoice {
  readonly name: string
  readonly direction: 'asc' | 'desc'
}

export interface BuilderState {
  readonly table: string
  readonly measures: readonly MeasureItem[]
  readonly dimensions: readonly DimensionItem[]
  readonly filters: readonly FilterItem[]
  /** null: the default order (time ascending, else the first measure descending for bars and pies). */
  readonly sort: SortChoice | null
  /** As typed ('' : none). */
  readonly limit: string
  /** null: picked from the fields (see autoChart). */
  readonly chart: ChartType | null
  /** '' : the suggested name. */
  readonly name: string
  readonly visibility?: Visibility
  readonly formats?: Readonly<Record<string, ColumnFormat>>
  /** The comparison chosen (kept in the definition only where the chart draws it: formats.ts). */
  readonly comparison?: ComparisonPeriod
  readonly nextKey: number
}

export const AGGREGATES: readonly Aggregate[] = ['sum', 'count', 'count-distinct', 'avg', 'min', 'max']
export const TIME_GRAINS: readonly TimeGrain[] = ['hour', 'day', 'week', 'month', 'quarter', 'year']
export const BUILDER_CHARTS: readonly ChartType[] = [
  'bar',
  'line',
  'area',
  'stacked-bar',
  'pie',
  'doughnut',
  'table',
  'single-value',
  'combo',
  'scatter',
  'funnel',
  'pivot',
  'trend',
]
export const MAX_LIMIT = 1_000_000
const NAME_MAX = 63

export const AGGREGATE_LABELS: Record<Aggregate, string> = {
  sum: 'Sum',
  count: 'Count',
  'count-distinct': 'Count distinct',
  avg: 'Average',
  min: 'Minimum',
  max: 'Maximum',
}

export const CHART_LABELS: Record<ChartType, string> = {
  bar: 'Bar',
  line: 'Line',
  area: 'Area',
  'stacked-bar': 'Stacked bar',
  pie: 'Pie',
  doughnut: 'Doughnut',
  table: 'Table',
  'single-value': 'Number',
  combo: 'Bars and line',
  scatter: 'Scatter',
  funnel: 'Funnel',
  pivot: 'Pivot table',
  trend: 'Number with trend',
}

const OPERATORS_BY_KIND: Record<FieldKind, readonly Operator[]> = {
  text: ['in', 'not-in', 'eq', 'neq', 'contains', 'is-null', 'is-not-null'],
  number: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between', 'is-null', 'is-not-null'],
  time: ['gte', 'lte', 'gt', 'lt', 'between', 'eq', 'is-null', 'is-not-null'],
  boolean: ['eq', 'is-null', 'is-not-null'],
}

const OPERATOR_LABELS: Record<Operator, string> = {
  eq: 'is',
  neq: 'is not',
  gt: 'greater than',
  gte: 'at least',
  lt: 'less than',
  lte: 'at most',
  in: 'is one of',
  'not-in': 'is not one of',
  between: 'between',
  'is-null': 'is empty',
  'is-not-null': 'is not empty',
  contains: 'contains',
}
const TIME_OPERATOR_LABELS: Partial<Record<Operator, string>> = {
  eq: 'on',
  gt: 'after',
  gte: 'on or after',
  lt: 'before',
  lte: 'on or before',
}

export function fieldKind(dataType: string): FieldKind {
  if (isNumericType(dataType) || /^(decimal|float|double|numeric|bigint|int)/i.test(dataType)) return 'number'
  if (dataType === 'date' || dataType === 'datetime' || /^timestamp/i.test(dataType)) return 'time'
  if (dataType === 'boolean') return 'boolean'
  return 'text'
}

export const operatorsFor = (kind: FieldKind): readonly Operator[] => OPERATORS_BY_KIND[kind]
export const operatorLabel = (op: Operator, kind: FieldKind): string =>
  (kind === 'time' ? TIME_OPERATOR_LABELS[op] : undefined) ?? OPERATOR_LABELS[op]
/** Whether the operator takes no value (is empty / is not empty). */
export const takesNoValue = (op: Operator): boolean => op === 'is-null' || op === 'is-not-null'

export const defaultAggregate = (column: ModelColumn): Aggregate =>
  fieldKind(column.dataType) === 'number' ? 'sum' : 'count'

/** Aggregates that make sense on a column of this kind. */
export const aggregatesFor = (kind: FieldKind | null): readonly Aggregate[] =>
  kind === null
    ? ['count']
    : kind === 'number'
      ? AGGREGATES
      : kind === 'time'
        ? ['count', 'count-distinct', 'min', 'max']
        : ['count', 'count-distinct']

export function defaultOperator(kind: FieldKind): Operator {
  return kind === 'text' ? 'in' : kind === 'boolean' ? 'eq' : 'gte'
}

export function emptyState(table = ''): BuilderState {
  return { table, measures: [], dimensions: [], filters: [], sort: null, limit: '', chart: null, name: '', nextKey: 1 }
}

/** What the end user has chosen, as a string: equal strings, the same choices (the next item key aside). */
export function choicesOf(state: BuilderState): string {
  const { nextKey: _, ...choices } = state
  return JSON.stringify(choices)
}

/** Another table: its fields replace the previous table's (they would not resolve against it). */
export function selectTable(state: BuilderState, table: string): BuilderState {
  if (table === state.table) return state
  return { ...emptyState(table), name: state.name, chart: state.chart, nextKey: state.nextKey }
}

export function tableOf(model: Model | undefined, name: string): ModelTable | undefined {
  return model?.tables.find((t) => t.name === name)
}

export function columnOf(
  model: Model | undefined,
  state: Pick<BuilderState, 'table'>,
  item: { column: string | null; table?: string },
): ModelColumn | undefined {
  if (item.column === null) return undefined
  return tableOf(model, item.table ?? state.table)?.columns.find((c) => c.name === item.column)
}

export function addMeasure(state: BuilderState, column: ModelColumn | null): BuilderState {
  const aggregate = column ? defaultAggregate(column) : 'count'
  const item: MeasureItem = { key: state.nextKey, column: column?.name ?? null, aggregate }
  return { ...state, measures: [...state.measures, item], nextKey: state.nextKey + 1 }
}

export function addDimension(state: BuilderState, column: ModelColumn): BuilderState {
  const time = fieldKind(column.dataType) === 'time'
  const item: DimensionItem = {
    key: state.nextKey,
    column: column.name,
    ...(time ? { timeGrain: column.dataType === 'date' ? 'month' : 'day' } : {}),
  }
  return { ...state, dimensions: [...state.dimensions, item], nextKey: state.nextKey + 1 }
}

export function addFilter(state: BuilderState, column: ModelColumn): BuilderState {
  const kind = fieldKind(column.dataType)
  const item: FilterItem = {
    key: state.nextKey,
    column: column.name,
    operator: defaultOperator(kind),
    value: kind === 'boolean' ? 'true' : '',
    value2: '',
  }
  return { ...state, filters: [...state.filters, item], nextKey: state.nextKey + 1 }
}

type ListName = 'measures' | 'dimensions' | 'filters'
type ItemOf<L extends ListName> = BuilderState[L][number]

export function updateItem<L extends ListName>(
  state: BuilderState,
  list: L,
  key: number,
  patch: Partial<Omit<ItemOf<L>, 'key'>>,
): BuilderState {
  const items = (state[list] as readonly ItemOf<L>[]).map((i) => (i.key === key ? { ...i, ...patch } : i))
  return { ...state, [list]: items }
}

export function removeItem(state: BuilderState, list: ListName, key: number): BuilderState {
  const items = (state[list] as readonly { key: number }[]).filter((i) => i.key !== key)
  const next = { ...state, [list]: items }
  // a sort on an output that is gone falls back to the default
  return next.sort && !outputNames(next).some((o) => o.name === next.sort?.name) ? { ...next, sort: null } : next
}

/** Moves an item one place up (-1) or down (+1) in its list. */
export function moveItem(state: BuilderState, list: ListName, key: number, by: -1 | 1): BuilderState {
  const items = [...(state[list] as readonly { key: number }[])]
  const at = items.findIndex((i) => i.key === key)
  const to = at + by
  if (at < 0 || to < 0 || to >= items.length) return state
  const [item] = items.splice(at, 1)
  if (item) items.splice(to, 0, item)
  return { ...state, [list]: items }
}

export interface OutputName {
  readonly key: number
  readonly role: 'measure' | 'dimension'
  readonly name: string
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '') || 'field'

/**
 * The query's output column names, unique and at most 63 characters: a definition's own name
 * when it has one, else the column (with its grain) for a dimension and `sum_amount` (or
 * `count`) for a measure. Dimensions first: the chart's x is the first dimension.
 */
export function outputNames(state: Pick<BuilderState, 'measures' | 'dimensions'>): OutputName[] {
  const taken = new Set<string>()
  const unique = (wanted: string) => {
    const base = wanted.slice(0, NAME_MAX)
    let name = base
    for (let n = 2; taken.has(name); n++) name = `${base.slice(0, NAME_MAX - String(n).length - 1)}_${n}`
    taken.add(name)
    return name
  }
  const out: OutputName[] = []
  for (const d of state.dimensions) {
    const wanted = d.name ?? (d.timeGrain ? `${slug(d.column)}_${d.timeGrain}` : slug(d.column))
    out.push({ key: d.key, role: 'dimension', name: unique(wanted) })
  }
  for (const m of state.measures) {
    const wanted = m.name ?? (m.column === null ? 'count' : `${m.aggregate.replace('-', '_')}_${slug(m.column)}`)
    out.push({ key: m.key, role: 'measure', name: unique(wanted) })
  }
  return out
}

/** The chart the fields suggest: a number, a line over time, bars over categories, else a table. */
export function autoChart(state: Pick<BuilderState, 'measures' | 'dimensions'>): ChartType {
  const dims = state.dimensions.length
  const measures = state.measures.length
  if (dims === 0) return measures === 1 ? 'single-value' : 'table'
  if (dims === 1 && measures >= 1) return state.dimensions[0]?.timeGrain ? 'line' : 'bar'
  return 'table'
}

export const chartOf = (state: BuilderState): ChartType => state.chart ?? autoChart(state)

/** Why this chart cannot show these fields (null: it can). */
export function chartProblem(type: ChartType, state: Pick<BuilderState, 'measures' | 'dimensions'>): string | null {
  const dims = state.dimensions.length
  const measures = state.measures.length
  if (isShapedChart(type)) {
    const names = outputNames(state)
    const nameOf = (key: number) => names.find((n) => n.key === key)?.name ?? String(key)
    return (
      chartMisfit(
        { type },
        {
          measures: state.measures.map((m) => nameOf(m.key)),
          dimensions: state.dimensions.map((d) => ({ name: nameOf(d.key), timeGrain: d.timeGrain ?? undefined })),
        },
      )?.message ?? null
    )
  }
  switch (type) {
    case 'table':
      return dims + measures === 0 ? 'Add a measure or a dimension.' : null
    case 'single-value':
      return measures === 1 && dims === 0 ? null : 'A number shows exactly one measure and no dimension.'
    case 'pie':
    case 'doughnut':
      return measures === 1 && dims === 1
        ? null
        : `A ${CHART_LABELS[type].toLowerCase()} chart needs one dimension and one measure.`
    default:
      return dims === 1 && measures >= 1
        ? null
        : `A ${CHART_LABELS[type].toLowerCase()} chart needs one dimension and at least one measure.`
  }
}

export function fieldLabel(
  model: Model | undefined,
  state: Pick<BuilderState, 'table'>,
  item: { column: string | null; table?: string },
): string {
  if (item.column === null) return 'Rows'
  const label = columnOf(model, state, item)?.label ?? item.column
  if (item.table && item.table !== state.table) return `${tableOf(model, item.table)?.label ?? item.table} › ${label}`
  return label
}

export function measureLabel(model: Model | undefined, state: BuilderState, m: MeasureItem): string {
  if (m.column === null) return 'Number of rows'
  const field = fieldLabel(model, state, m)
  switch (m.aggregate) {
    case 'sum':
      return `Total ${field}`
    case 'count':
      return `Count of ${field}`
    case 'count-distinct':
      return `Distinct ${field}`
    case 'avg':
      return `Average ${field}`
    case 'min':
      return `Minimum ${field}`
    case 'max':
      return `Maximum ${field}`
  }
}

export function dimensionLabel(model: Model | undefined, state: BuilderState, d: DimensionItem): string {
  const field = fieldLabel(model, state, d)
  return d.timeGrain ? `${field} (${d.timeGrain})` : field
}

/** "Total Amount by Channel": what a metric is called until the end user names it. */
export function suggestedName(model: Model | undefined, state: BuilderState): string {
  const measures = state.measures.map((m) => measureLabel(model, state, m))
  const dims = state.dimensions.map((d) => dimensionLabel(model, state, d))
  const what = measures.length ? measures.join(', ') : dims.length ? dims.join(', ') : ''
  const name = measures.length && dims.length ? `${what} by ${dims.join(' and ')}` : what
  return name.length > 200 ? `${name.slice(0, 199)}…` : name
}

export interface Problem {
  /** `table`, `fields`, `chart`, `limit`, `name`, `filter-<key>` or `format-<output name>`. */
  readonly where: string
  readonly message: string
}

type Value = string | number | boolean | null

function parseValue(text: string, kind: FieldKind): Value | undefined {
  const t = text.trim()
  if (t === '') return undefined
  if (kind === 'number') {
    const n = Number(t)
    return Number.isFinite(n) ? n : undefined
  }
  if (kind === 'boolean') return t === 'true' ? true : t === 'false' ? false : undefined
  return t
}

function filterValues(f: FilterItem, kind: FieldKind): { values?: Value[]; problem?: string } {
  if (takesNoValue(f.operator)) return {}
  const what = kind === 'number' ? 'a number' : kind === 'time' ? 'a date' : 'a value'
  if (f.operator === 'in' || f.operator === 'not-in') {
    const parts = f.value
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
    if (parts.length === 0)
      // a text column's values are picked from a list (value-picker.ts); the others are typed
      return {
        problem: kind === 'text' ? 'Choose one or more values.' : 'Enter one or more values, separated by commas.',
      }
    const values = parts.map((p) => parseValue(p, kind))
    if (values.some((v) => v === undefined)) return { problem: `Each value must be ${what}.` }
    return { values: values as Value[] }
  }
  const from = parseValue(f.value, kind)
  if (from === undefined) return { problem: `Enter ${what}.` }
  if (f.operator !== 'between') return { values: [from] }
  const to = parseValue(f.value2, kind)
  if (to === undefined) return { problem: `Enter ${what} for the upper bound.` }
  return { values: [from, to] }
}

export type DefinitionResult =
  | { readonly ok: true; readonly metric: MetricDefinition }
  | { readonly ok: false; readonly problems: readonly Problem[] }

/**
 * The metric definition of the state, or what is missing or wrong. `forSave`: a name is
 * required too (the preview runs without one).
 */
export function toDefinition(state: BuilderState, model: Model | undefined): DefinitionResult {
  const problems: Problem[] = []
  if (!state.table) problems.push({ where: 'table', message: 'Pick a table.' })
  if (state.measures.length + state.dimensions.length === 0 && state.table)
    problems.push({ where: 'fields', message: 'Add a measure or a dimension.' })
  const type = chartOf(state)
  const chartIssue = state.measures.length + state.dimensions.length ? chartProblem(type, state) : null
  if (chartIssue) problems.push({ where: 'chart', message: chartIssue })

  const names = outputNames(state)
  const nameOf = (key: number) => names.find((n) => n.key === key)?.name ?? ''
  const where: NonNullable<MetricQuery['where']>[number][] = []
  for (const f of state.filters) {
    const kind = fieldKind(columnOf(model, state, f)?.dataType ?? 'string')
    const { values, problem } = filterValues(f, kind)
    if (problem) problems.push({ where: `filter-${f.key}`, message: problem })
    else
      where.push({
        column: f.column,
        ...(f.table ? { table: f.table } : {}),
        operator: f.operator,
        ...(values ? { values } : {}),
      })
  }
  let limit: number | undefined
  if (state.limit.trim() !== '') {
    const n = Number(state.limit)
    if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT)
      problems.push({ where: 'limit', message: `A whole number from 1 to ${MAX_LIMIT.toLocaleString('en-US')}.` })
    else limit = n
  }
  const outputs = new Set(names.map((n) => n.name))
  for (const [name, f] of Object.entries(state.formats ?? {})) {
    if (outputs.has(name) && f.style === 'currency' && !/^[A-Z]{3}$/.test(f.currency ?? ''))
      problems.push({ where: `format-${name}`, message: 'A currency needs its three-letter code (USD, EUR, JPY).' })
  }
  if (problems.length) return { ok: false, problems }

  const dimensions = state.dimensions.map((d) => ({
    name: nameOf(d.key),
    column: d.column,
    ...(d.table ? { table: d.table } : {}),
    ...(d.timeGrain ? { timeGrain: d.timeGrain } : {}),
  }))
  const measures = state.measures.map((m) => ({
    name: nameOf(m.key),
    aggregate: m.aggregate,
    ...(m.column !== null ? { column: m.column } : {}),
    ...(m.table ? { table: m.table } : {}),
  }))
  const orderBy = sortOf(state, type, dimensions, measures)
  const formats = state.formats
    ? Object.fromEntries(Object.entries(state.formats).filter(([k]) => outputs.has(k)))
    : undefined
  const cartesian = type !== 'table' && type !== 'single-value'
  const metric: MetricDefinition = {
    name: (state.name.trim() || suggestedName(model, state) || 'New metric').slice(0, 200),
    chart: {
      type,
      ...(cartesian && dimensions[0] ? { x: dimensions[0].name } : {}),
      ...(type !== 'table' && measures.length ? { y: measures.map((m) => m.name) } : {}),
    },
    query: {
      from: state.table,
      ...(measures.length ? { measures } : {}),
      ...(dimensions.length ? { dimensions } : {}),
      ...(where.length ? { where } : {}),
      ...(orderBy.length ? { orderBy } : {}),
      ...(limit !== undefined ? { limit } : {}),
    },
    ...(formats && Object.keys(formats).length ? { formats } : {}),
  }
  return { ok: true, metric }
}

/** The chosen order, else time ascending (a line reads left to right), else bars and slices largest first. */
function sortOf(
  state: BuilderState,
  type: ChartType,
  dimensions: readonly { name: string; timeGrain?: TimeGrain }[],
  measures: readonly { name: string }[],
): SortChoice[] {
  if (state.sort) return [state.sort]
  const time = dimensions.find((d) => d.timeGrain)
  if (time) return [{ name: time.name, direction: 'asc' }]
  const first = measures[0]
  if (dimensions.length && first && (type === 'bar' || type === 'pie' || type === 'doughnut' || type === 'funnel'))
    return [{ name: first.name, direction: 'desc' }]
  return []
}

/**
 * The builder's state for a saved definition (editing it): names and formats are kept, and the
 * company metric's comparison (which is not part of a definition) when it has one.
 */
export function fromDefinition(
  def: MetricDefinition,
  model: Model | undefined,
  comparison?: ComparisonPeriod,
): BuilderState {
  let key = 1
  const q = def.query
  const state0: Pick<BuilderState, 'table'> = { table: q.from }
  const measures: MeasureItem[] = (q.measures ?? []).map((m) => ({
    key: key++,
    column: m.column ?? null,
    aggregate: m.aggregate,
    name: m.name,
    ...(m.table && m.table !== q.from ? { table: m.table } : {}),
  }))
  const dimensions: DimensionItem[] = (q.dimensions ?? []).map((d) => ({
    key: key++,
    column: d.column,
    name: d.name,
    ...(d.table && d.table !== q.from ? { table: d.table } : {}),
    ...(d.timeGrain ? { timeGrain: d.timeGrain } : {}),
  }))
  const filters: FilterItem[] = (q.where ?? []).map((w) => {
    const kind = fieldKind(
      columnOf(model, state0, { column: w.column, ...(w.table ? { table: w.table } : {}) })?.dataType ?? 'string',
    )
    const values = (w.values ?? []).map((v) => (v === null ? '' : String(v)))
    const list = w.operator === 'in' || w.operator === 'not-in'
    return {
      key: key++,
      column: w.column,
      ...(w.table && w.table !== q.from ? { table: w.table } : {}),
      operator: w.operator,
      value: list ? values.join(', ') : (values[0] ?? (kind === 'boolean' ? 'true' : '')),
      value2: w.operator === 'between' ? (values[1] ?? '') : '',
    }
  })
  const order = q.orderBy?.[0]
  return {
    table: q.from,
    measures,
    dimensions,
    filters,
    sort: order ? { name: order.name, direction: order.direction } : null,
    limit: q.limit !== undefined ? String(q.limit) : '',
    chart: def.chart.type,
    name: def.name,
    ...(def.formats ? { formats: def.formats } : {}),
    ...(comparison ? { comparison } : {}),
    nextKey: key,
  }
}
