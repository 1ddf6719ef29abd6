import { type ModelTable, resolveTable, type SemanticModel, tableKey } from '../model.js'
import type { TenancyFacts } from './decide.js'

/**
 * Every tenant column of a model, by table key: a datamart table's clientColumn, the embed's
 * tableTenancySettings, and the client-name and key columns of the tenancy table of TABLE
 * tenancySettings. No end user ever sees or names one: the visible model leaves them out, and
 * so do the underlying rows.
 */
export function tenantColumnsOf(
  facts: Pick<TenancyFacts, 'model' | 'settings' | 'tableSettings'>,
): ReadonlyMap<string, ReadonlySet<string>> {
  const { model, settings } = facts
  const out = new Map<string, Set<string>>()
  const mark = (key: string, column: string) => {
    const set = out.get(key) ?? new Set<string>()
    set.add(column)
    out.set(key, set)
  }
  for (const t of model.tables.values()) if (t.clientColumn) mark(t.key, t.clientColumn)
  for (const t of facts.tableSettings) {
    const table = tryResolve(model, t.name)
    if (table) mark(table.key, t.clientColumn)
  }
  if (settings?.tenancyLevel === 'TABLE') {
    const table = tryResolve(model, tableKey(settings.schemaName, settings.tableName))
    if (table) {
      mark(table.key, settings.tableClientNameColumn)
      mark(table.key, settings.tablePrimaryKeyColumn)
    }
  }
  return out
}

/** Whether a column of `table` is one an end user may see: not hidden, not a tenant column (by name or alias). */
export function isShownColumn(
  table: ModelTable,
  column: { readonly name: string; readonly alias?: string | undefined; readonly hidden?: boolean | undefined },
  tenantColumns: ReadonlyMap<string, ReadonlySet<string>>,
): boolean {
  const here = tenantColumns.get(table.key)
  if (column.hidden) return false
  return !(here?.has(column.name) || (column.alias !== undefined && here?.has(column.alias)))
}

function tryResolve(model: SemanticModel, ref: string): ModelTable | undefined {
  try {
    return resolveTable(model, ref)
  } catch {
    return undefined
  }
}
