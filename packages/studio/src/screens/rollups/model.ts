import type { StudioApi } from '../../api/client.js'
import { tableKey } from '../table-key.js'

/** A table of the workspace's datamart with the columns the last sync found. */
export interface ModelTable {
  /** `schema.table` */
  readonly key: string
  readonly columns: readonly { readonly name: string; readonly dataType: string }[]
}

/** What the rollup form offers: the datamart's tables, and which tables each one reaches by its relationships. */
export interface RollupModel {
  readonly tables: readonly ModelTable[]
  /** Table key → the other tables joined to it, directly or through others. */
  readonly reach: ReadonlyMap<string, readonly string[]>
}

const TIME_TYPES = new Set(['date', 'datetime', 'unknown'])
export const isTimeColumn = (c: { readonly dataType: string }): boolean => TIME_TYPES.has(c.dataType)

/** The workspace's datamart tables and relationships; undefined when the workspace has no datamart. */
export async function loadModel(api: StudioApi, workspaceName: string): Promise<RollupModel | undefined> {
  const [workspaces, marts] = await Promise.all([api.workspaces(), api.datamarts()])
  const mart = marts.find((m) => m.name === workspaces.find((w) => w.name === workspaceName)?.datamartName)
  if (!mart) return undefined
  const found = await api.datasourceTables(mart.companyIntegration.name)
  const chosen = (mart.datamartTables ?? []).map((t) => tableKey(t.schemaName, t.tableName))
  const hidden = new Map(
    (mart.datamartTables ?? []).map((t) => [
      tableKey(t.schemaName, t.tableName),
      new Set(t.datamartTableColumns.filter((c) => c.isHide).map((c) => c.columnName)),
    ]),
  )
  const tables = found.tables
    .map((t) => ({ key: tableKey(t.schema, t.name), columns: t.columns }))
    .filter((t) => chosen.length === 0 || chosen.includes(t.key))
    .map((t) => ({ ...t, columns: t.columns.filter((c) => !hidden.get(t.key)?.has(c.name)) }))
  const edges = new Map<string, Set<string>>()
  const link = (a: string, b: string) => edges.set(a, (edges.get(a) ?? new Set()).add(b))
  for (const r of mart.datamartRelationships ?? []) {
    link(r.parentTableName, r.childTableName)
    link(r.childTableName, r.parentTableName)
  }
  const reach = new Map<string, string[]>()
  for (const t of tables) {
    const seen = new Set([t.key])
    const queue = [t.key]
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      for (const n of edges.get(next) ?? []) if (!seen.has(n)) seen.add(n) && queue.push(n)
    }
    reach.set(
      t.key,
      tables.map((o) => o.key).filter((k) => k !== t.key && seen.has(k)),
    )
  }
  return { tables, reach }
}
