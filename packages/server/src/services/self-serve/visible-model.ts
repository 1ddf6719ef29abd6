import type { SelfServeModel } from '@strata/contract/self-serve'
import type { ModelColumn, ModelTable, SemanticModel } from '../../query/model.js'
import { isShownColumn, tenantColumnsOf } from '../../query/tenancy/columns.js'
import type { Embed } from '../embeds/embeds.js'
import type { Source } from '../query/sources.js'
import { tenancyFactsOf } from '../query/tenancy-facts.js'
import { shownName } from './definition.js'

/**
 * The model an end user may see and build on (docs/runtime-api.md#the-visible-model): the source's tables and columns
 * minus hidden ones (datamart isHide) and minus every tenant column (query/tenancy/columns.ts). Relationships only between visible tables.
 * Definitions are validated against this model, so a hidden or tenant column is "no column",
 * and their names are resolved in it, once (definition.ts).
 */
export function visibleModel(source: Source, embed: Embed): SemanticModel {
  const { model } = source
  const tenantColumns = tenantColumnsOf(tenancyFactsOf(source, embed))
  const tables = new Map<string, ModelTable>()
  for (const t of model.tables.values()) {
    if (t.hidden) continue
    const columns = new Map<string, ModelColumn>()
    for (const [name, c] of t.columns) if (isShownColumn(t, c, tenantColumns)) columns.set(name, c)
    // the client column itself is gone: the table no longer names one (compile uses the full model)
    const { clientColumn: _clientColumn, ...rest } = t
    tables.set(t.key, { ...rest, columns })
  }
  const relationships = model.relationships.filter((r) => tables.has(r.parentTable) && tables.has(r.childTable))
  return { tables, relationships }
}

/**
 * GET /model's answer: the visible model's tables (labels defaulting to names) and
 * relationships; a column is named as a definition may name it (definition.ts `shownName`).
 */
export function describeModel(model: SemanticModel): SelfServeModel {
  return {
    tables: [...model.tables.values()].map((t) => ({
      name: t.key,
      label: t.label ?? t.name,
      columns: [...t.columns.values()].map((c) => ({
        name: shownName(t, c),
        label: c.label ?? c.alias ?? c.name,
        dataType: c.dataType,
      })),
    })),
    relationships: model.relationships.map((r) => ({
      parentTable: r.parentTable,
      parentColumn: r.parentColumn,
      childTable: r.childTable,
      childColumn: r.childColumn,
    })),
  }
}
