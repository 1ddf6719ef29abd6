import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { DuckDBInstance } from '@duckdb/node-api'
import type { FastifyInstance } from 'fastify'

/** Every file under `dir` (recursively), sorted; none when it does not exist. */
export function filesOf(dir: string): string[] {
  const out: string[] = []
  let entries: import('node:fs').Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return out
  }
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...filesOf(path))
    else out.push(path)
  }
  return out.sort()
}

/** The rows of Parquet files, read with a DuckDB of the test process, values as JSON. */
export async function readParquet(duck: DuckDBInstance, files: string[]): Promise<Record<string, unknown>[]> {
  if (files.length === 0) return []
  const conn = await duck.connect()
  try {
    const list = files.map((f) => `'${f.replaceAll("'", "''")}'`).join(', ')
    const reader = await conn.runAndReadAll(`SELECT * FROM read_parquet([${list}], union_by_name = true)`)
    return reader.getRowObjectsJson() as Record<string, unknown>[]
  } finally {
    conn.closeSync()
  }
}

/** The store's row of dashboard `dashboardId` (in workspace `workspaceName`, when given). */
export async function dashboardRow(
  app: FastifyInstance,
  dashboardId: string,
  workspaceName?: string,
): Promise<{ id: string; organization_id: string }> {
  let query = app.services.store.db
    .selectFrom('dashboards')
    .innerJoin('workspaces', 'workspaces.id', 'dashboards.workspace_id')
    .select(['dashboards.id as id', 'dashboards.organization_id as organization_id'])
    .where('dashboards.dashboard_id', '=', dashboardId)
  if (workspaceName !== undefined) query = query.where('workspaces.name', '=', workspaceName)
  return query.executeTakeFirstOrThrow()
}

/** The local folder of a rollup's files: DATA_DIR/rollups/<organization>/<dashboard row>/<rollup>. */
export async function rollupDir(
  app: FastifyInstance,
  dataDir: string,
  dashboardId: string,
  rollup: string,
  workspaceName?: string,
): Promise<string> {
  const row = await dashboardRow(app, dashboardId, workspaceName)
  return join(dataDir, 'rollups', row.organization_id, row.id, rollup)
}

/**
 * A metric result reduced to what two sources of the same answer must agree on (rows, total,
 * comparison, and the columns unless left out), with fractional numbers to 12 significant digits:
 * DuckDB adds doubles where PostgreSQL sums an exact numeric, so they may differ in the last bits.
 */
export function comparableResult(
  r: { data: unknown; totalRecords: unknown; metaData?: unknown; comparisonValue?: unknown },
  withColumns = true,
): unknown {
  const kept = {
    data: r.data,
    totalRecords: r.totalRecords,
    ...(withColumns ? { metaData: r.metaData } : {}),
    c: r.comparisonValue,
  }
  return JSON.parse(JSON.stringify(kept), (_k, v) =>
    typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(12)) : v,
  )
}

/** Metrics the rollup tests share, over an orders table (`amount`, `created_at`) named `from`. */
export const ordersMetric = {
  revenueByMonth: (from: string) => ({
    metricId: 'revenue_by_month',
    name: 'Revenue by month',
    chart: { type: 'line', x: 'month', y: ['revenue'] },
    query: {
      from,
      measures: [
        { name: 'revenue', aggregate: 'sum', column: 'amount' },
        { name: 'orders', aggregate: 'count' },
        { name: 'avg', aggregate: 'avg', column: 'amount' },
      ],
      dimensions: [{ name: 'month', column: 'created_at', timeGrain: 'month' }],
      orderBy: [{ name: 'month', direction: 'asc' }],
    },
  }),
  revenue: (from: string) => ({
    metricId: 'revenue',
    name: 'Revenue',
    chart: { type: 'single-value', y: ['revenue'] },
    query: { from, measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
  }),
  ordersByWeek: (from: string) => ({
    metricId: 'orders_by_week',
    name: 'Orders by week',
    chart: { type: 'line', x: 'week', y: ['orders'] },
    query: {
      from,
      measures: [{ name: 'orders', aggregate: 'count' }],
      dimensions: [{ name: 'week', column: 'created_at', timeGrain: 'week' }],
      orderBy: [{ name: 'week', direction: 'asc' }],
    },
  }),
}
