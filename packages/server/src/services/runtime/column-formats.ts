import { inferColumnFormat } from '@strata/contract/column-formats'
import type { ColumnFormat, MetricFormats } from '@strata/contract/document'
import type { Metric } from '../../query/document.js'
import { findTable, type ModelColumn, type SemanticModel } from '../../query/model.js'

/**
 * The load's `formats` of a metric: every output column's format, the metric's own (the
 * document's `formats`) first, else the model column's (declared in the datamart), else inferred
 * from the column's name and type (docs/dashboard-document.md#column-formats). A measure that
 * counts is a number; one that sums, averages or picks a column reads as that column (a money
 * column stays money), never as an identifier. A SQL metric's columns are known only from its
 * rows: the element infers those. The CSV download is untouched (raw values).
 */
export function metricFormats(metric: Metric, model: SemanticModel | undefined): MetricFormats | undefined {
  const declared = metric.formats ?? {}
  const query = metric.query
  if (!query || !model) return metric.formats
  const currency = modelCurrency(model)
  const column = (table: string | undefined, name: string | undefined): ModelColumn | undefined => {
    if (name === undefined) return undefined
    const t = findTable(model, table ?? query.from)
    return t?.columns.get(name) ?? [...(t?.columns.values() ?? [])].find((c) => c.alias === name)
  }
  const out: Record<string, ColumnFormat> = {}
  for (const d of query.dimensions ?? []) {
    if (d.timeGrain) continue
    const c = column(d.table, d.column)
    const f = c?.format ?? inferColumnFormat(d.column, c?.dataType, currency)
    if (f) out[d.name] = f
  }
  for (const m of query.measures ?? []) {
    const counts = m.aggregate === 'count' || m.aggregate === 'count-distinct'
    const c = counts ? undefined : column(m.table, m.column)
    const own = c?.format ?? (m.column ? inferColumnFormat(m.column, c?.dataType, currency) : undefined)
    const byName = inferColumnFormat(m.name, undefined, currency)
    const quantity = (f: ColumnFormat | undefined) =>
      f && f.style !== 'id' && f.style !== 'text' && f.style !== 'number' ? f : undefined
    out[m.name] = counts ? { style: 'number' } : (quantity(own) ?? quantity(byName) ?? { style: 'number' })
  }
  return { ...out, ...declared }
}

/** Per model (models are cached and immutable): the currency it declares, found once. */
const currencies = new WeakMap<SemanticModel, string | null>()

/** The currency the model declares: that of its first column formatted as a currency. */
export function modelCurrency(model: SemanticModel): string | undefined {
  let found = currencies.get(model)
  if (found === undefined) {
    found = null
    for (const t of model.tables.values())
      for (const c of t.columns.values())
        if (found === null && c.format?.style === 'currency' && c.format.currency) found = c.format.currency
    currencies.set(model, found)
  }
  return found ?? undefined
}
