import type { DashboardDocument } from '@strata/contract/document'
import type { Rollup, RollupAggregate, RollupGrain } from '@strata/contract/rollups'

/**
 * The rollups part of the company's document as the studio edits it, as pure functions: a form
 * holds drafts (every field a string, empty when not set), the document holds `rollups` as
 * docs/rollups.md describes it.
 */

/** None (no `rollups`), `"auto"`, or a list the author declares. */
export type RollupMode = 'none' | 'auto' | 'declared'

export interface MeasureDraft {
  readonly name: string
  readonly aggregate: RollupAggregate
  /** Empty: rows (count only). */
  readonly column: string
}

export interface RollupDraft {
  readonly name: string
  /** `schema.table` */
  readonly from: string
  /** Empty: no time column. */
  readonly timeColumn: string
  readonly grain: RollupGrain
  /** Columns of `from`, or `schema.table.column` of a joined table. */
  readonly dimensions: readonly string[]
  readonly measures: readonly MeasureDraft[]
  /** Empty: the server's default (once a day). */
  readonly every: string
  /** Empty: every refresh rebuilds the whole rollup. */
  readonly incremental: string
}

/** The aggregates a form offers (distinct counts do not re-aggregate, so none is offered). */
export const AGGREGATES: readonly { readonly value: RollupAggregate; readonly label: string }[] = [
  { value: 'sum', label: 'Sum' },
  { value: 'count', label: 'Count' },
  { value: 'min', label: 'Minimum' },
  { value: 'max', label: 'Maximum' },
  { value: 'avg', label: 'Average' },
]
export const GRAINS: readonly RollupGrain[] = ['hour', 'day', 'week', 'month', 'quarter', 'year']

export const modeOf = (doc: DashboardDocument): RollupMode =>
  doc.rollups === 'auto' ? 'auto' : doc.rollups === undefined ? 'none' : 'declared'

/** A rollup of the document as the form shows it. */
export function draftOf(r: Rollup): RollupDraft {
  return {
    name: r.name,
    from: r.from,
    timeColumn: r.time?.column ?? '',
    grain: r.time?.grain ?? 'day',
    dimensions: [...r.dimensions],
    measures: r.measures.map((m) => ({ name: m.name, aggregate: m.aggregate, column: m.column ?? '' })),
    every: r.refresh?.every ?? '',
    incremental: r.refresh?.incremental ?? '',
  }
}

/** A draft as the document keeps it: names trimmed, the optional parts only when set. */
export function rollupOf(d: RollupDraft): Rollup {
  const every = d.every.trim()
  const incremental = d.incremental.trim()
  return {
    name: d.name.trim(),
    from: d.from,
    ...(d.timeColumn ? { time: { column: d.timeColumn, grain: d.grain } } : {}),
    dimensions: [...d.dimensions],
    measures: d.measures.map((m) => ({
      name: m.name.trim(),
      aggregate: m.aggregate,
      ...(m.column ? { column: m.column } : {}),
    })),
    ...(every ? { refresh: { every, ...(incremental ? { incremental } : {}) } } : {}),
  }
}

/** The document with its rollups replaced: none drops the key, auto writes `"auto"`, declared the list. */
export function withRollups(
  doc: DashboardDocument,
  mode: RollupMode,
  drafts: readonly RollupDraft[],
): DashboardDocument {
  const { rollups: _old, ...rest } = doc
  if (mode === 'none') return rest
  return { ...rest, rollups: mode === 'auto' ? 'auto' : drafts.map(rollupOf) }
}

/**
 * What the form itself refuses before sending (the server checks the rest against the model):
 * an incremental window without a refresh interval, which `refresh` needs.
 */
export function draftProblem(
  drafts: readonly RollupDraft[],
): (RollupProblem & { readonly message: string }) | undefined {
  const index = drafts.findIndex((d) => d.incremental.trim() && !d.every.trim())
  if (index < 0) return undefined
  return {
    index,
    field: 'refresh.every',
    message: 'Say how often to refresh: an incremental window needs it (e.g. 1h).',
  }
}

/** A new rollup of `from`: its first date column as the time (by day), a count of rows, refreshed hourly. */
export function newDraft(from: string, timeColumn: string, taken: readonly string[]): RollupDraft {
  const table = from.split('.').at(-1) ?? 'table'
  let name = `${table}_rollup`
  for (let i = 2; taken.includes(name); i++) name = `${table}_rollup_${i}`
  return {
    name,
    from,
    timeColumn,
    grain: 'day',
    dimensions: [],
    measures: [{ name: 'rows', aggregate: 'count', column: '' }],
    every: '1h',
    incremental: '',
  }
}

/** Where a 400 about a rollup points: the rollup's index and the field (`from`, `measures[0].column` …; '' the whole rollup). */
export interface RollupProblem {
  readonly index: number
  readonly field: string
}

/** A refusal's reason without the path it starts with (the form shows it at that field). */
export const reasonOf = (message: string): string => message.replace(/^[\w.[\]]*rollups\[\d+\][\w.[\]]*:\s*/, '')

/**
 * The rollup field a refusal names, from its message (`importDashboardData.rollups[0].dimensions[1]: no
 * column …`): a dimension points at the dimensions, a refresh or measure at its own input.
 */
export function problemOf(message: string): RollupProblem | undefined {
  const m = /rollups\[(\d+)\]((?:\.[A-Za-z_]+|\[\d+\])*)/.exec(message)
  if (!m) return undefined
  const path = (m[2] ?? '').replace(/^\./, '')
  const field = path.startsWith('dimensions')
    ? 'dimensions'
    : path.startsWith('time')
      ? path.endsWith('grain')
        ? 'time.grain'
        : 'time.column'
      : path === 'refresh'
        ? 'refresh.every'
        : path
  return { index: Number(m[1]), field }
}
