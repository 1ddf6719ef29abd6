import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeDemoDataset } from '../../src/services/demo/dataset.js'
import { demoDatamart, demoDocument } from '../../src/services/demo/document.js'
import { ACCESS } from '../helpers/analytics.js'
import { type JsonResponse, request } from '../helpers/process.js'

/**
 * Helpers for the live-process reliability tests: an analytics setup over HTTP on a running
 * server whose warehouse is DuckDB over CSV files (the demo's generated dataset, small), so a
 * test needs no warehouse server of its own.
 */
/** helpers/analytics.ts's ACCESS, with end-user dashboard filters allowed. */
export const ACCESS_SETTINGS = { ...ACCESS, isAllowEndUserDashboardFilter: true }

export const FILE_TENANTS = ['acme', 'globex', 'initech', 'umbrella'] as const

export function expectOk(res: JsonResponse, what: string) {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`)
  return res.body
}

/**
 * A fresh FILES_ROOT (give it to the server as `FILES_ROOT`; the caller removes it) holding a
 * small copy of the demo dataset in its folder `files`, the path setupFilesAnalytics uses.
 */
export function csvDataset(size = { customers: 40, orders: 2_000 }): string {
  const root = mkdtempSync(join(tmpdir(), 'strata-files-'))
  writeDemoDataset(join(root, 'files'), size)
  return root
}

export interface FilesAnalytics {
  readonly embedId: string
  readonly dashboardId: string
}

/**
 * csv datasource `files` (the folder `files` of the server's FILES_ROOT: see csvDataset) →
 * datamart `sales` (tenant columns) → workspace `main` → dashboard → embed.
 */
export async function setupFilesAnalytics(
  base: string,
  creds: { serviceToken: string; dataAppKey: string },
  headers: Record<string, string> = {},
): Promise<FilesAnalytics> {
  const s = { token: creds.serviceToken, headers }
  expectOk(
    await request(base, 'POST', '/api/v2/datasource', {
      ...s,
      body: { datasourceType: 'csv', credentials: { name: 'files', path: 'files' } },
    }),
    'datasource',
  )
  expectOk(
    await request(base, 'POST', '/api/v2/data-app/datamarts', {
      ...s,
      body: {
        name: 'sales',
        datasourceName: 'files',
        // the demo's: the demo document reads its custom column (refunded)
        ...demoDatamart,
      },
    }),
    'datamart',
  )
  expectOk(
    await request(base, 'POST', '/api/v2/workspace', {
      ...s,
      body: { name: 'main', connectionType: 'DATAMART', datamartName: 'sales' },
    }),
    'workspace',
  )
  expectOk(
    await request(base, 'POST', '/api/v2/data-app/import-dashboard', {
      ...s,
      body: { workspaceName: 'main', dashboardId: 'sales-overview', importDashboardData: demoDocument },
    }),
    'import',
  )
  const embed = expectOk(
    await request(base, 'POST', '/api/v2/data-app/embeds', {
      token: creds.dataAppKey,
      headers,
      body: {
        dashboardId: 'sales-overview',
        embedType: 'dashboard',
        workspaceName: 'main',
        name: 'Sales',
        accessSettings: ACCESS_SETTINGS,
      },
    }),
    'embed',
  )
  return { embedId: embed.id as string, dashboardId: 'sales-overview' }
}

/** A small dashboard document over the files datamart, named so that a torn write would show. */
export function smallDocument(name: string) {
  return {
    name,
    filters: [{ name: 'country', label: 'Country', type: 'multi-select', table: 'main.customers', column: 'country' }],
    layout: [{ metricId: 'revenue', x: 0, y: 0, w: 4, h: 2 }],
    metrics: [
      {
        metricId: 'revenue',
        name: `Revenue of ${name}`,
        chart: { type: 'single-value', y: ['revenue'] },
        query: { from: 'main.orders', measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
      },
      {
        metricId: 'orders',
        name: `Orders of ${name}`,
        chart: { type: 'single-value', y: ['orders'] },
        query: { from: 'main.orders', measures: [{ name: 'orders', aggregate: 'count' }] },
      },
    ],
  }
}

/** Runs `fn` over `items`, `width` at a time. */
export async function inBatches<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = []
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(fn))))
  return out
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
