import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import { READ_ONLY_ACCESS } from '../../schemas/embeds.js'
import { now } from '../../store/store.js'
import { PRIMARY_ORGANIZATION_ID } from '../admin/admin-accounts.js'
import type { Services } from '../index.js'
import { writeDemoDataset } from './dataset.js'
import { demoDatamart, demoDocument } from './document.js'

/**
 * What the demo's company allows on its embed: everything an end user can do but email reports
 * and the AI pilot. Each panel's guest token narrows it (routes/demo: acme may build and arrange,
 * globex may not).
 */
const DEMO_ACCESS = {
  ...READ_ONLY_ACCESS,
  isAllowUnderlyingData: true,
  isAllowEndUserDashboardFilter: true,
  isAllowMetricCreation: true,
  isAllowMetricUpdate: true,
  isAllowMetricDeletion: true,
  isAllowManageMetrics: true,
  isAllowMetricLayoutChange: true,
  isAllowCreateDashboardView: true,
}

export const DEMO = {
  dataApp: 'demo',
  datasource: 'demo',
  datamart: 'demo_sales',
  workspace: 'demo',
  dashboardId: 'demo-sales',
  /** The dataset's folder under FILES_ROOT. */
  folder: 'demo',
} as const

export interface DemoSeed {
  /** Set only on the run that created the data app: its key, to print once. */
  readonly key?: string
}

/**
 * First start with DEMO=true: a generated multi-tenant dataset (CSV, read by DuckDB through
 * the `csv` datasource type), its datamart, workspace, dashboard and a data app with an embed.
 * Idempotent: each step is skipped when its object exists, so an interrupted seed completes
 * on the next start.
 */
export async function seedDemo(services: Services, log: FastifyBaseLogger): Promise<DemoSeed> {
  const org = PRIMARY_ORGANIZATION_ID
  const { store, datasources, datamarts, workspaces, dashboards, dataApps, embeds } = services
  // under FILES_ROOT, the one place a csv datasource reads from: its path is relative to it
  const dir = join(services.config.filesRoot, DEMO.folder)
  const generated = !existsSync(join(dir, 'orders.csv'))
  if (generated) {
    const started = Date.now()
    writeDemoDataset(dir)
    log.info({ dir, ms: Date.now() - started }, 'demo: generated the sales dataset')
  }
  await store.db
    .insertInto('organizations')
    .values({ id: org, name: 'Strata', created_at: now() })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
  const demoSource = { datasourceType: 'csv', credentials: { name: DEMO.datasource, path: DEMO.folder } } as const
  if (!(await datasources.byName(org, DEMO.datasource))) await datasources.create(org, demoSource)
  // seeded by an earlier version, at an absolute path outside FILES_ROOT: move it to the new files
  else if (generated) await datasources.update(org, demoSource)
  if (!(await datamarts.byName(org, DEMO.datamart))) {
    await datamarts.create(org, DEMO.datamart, DEMO.datasource, demoDatamart)
  }
  let workspace = await workspaces.byName(org, DEMO.workspace)
  if (!workspace) {
    await workspaces.create(org, { name: DEMO.workspace, connectionType: 'DATAMART', datamartName: DEMO.datamart })
    workspace = await workspaces.byName(org, DEMO.workspace)
  }
  if (workspace && !(await dashboards.byExternalId(workspace.id, DEMO.dashboardId))) {
    // a datamart seeded by an earlier version may lack a column the document reads (refunded)
    await datamarts.update(org, DEMO.datamart, demoDatamart)
    await dashboards.import(org, {
      workspaceName: DEMO.workspace,
      dashboardId: DEMO.dashboardId,
      importDashboardData: demoDocument,
    })
  }
  let key: string | undefined
  if (!(await dataApps.byName(org, DEMO.dataApp))) key = (await dataApps.create(org, DEMO.dataApp)).key
  const app = await dataApps.byName(org, DEMO.dataApp)
  if (app) {
    const principal = {
      kind: 'dataApp' as const,
      organizationId: org,
      dataAppId: app.id,
      dataAppName: app.name,
      keyId: null,
    }
    const embed = await embeds.resolve(app.id, DEMO.dashboardId)
    if (!embed) {
      await embeds.create(principal, {
        dashboardId: DEMO.dashboardId,
        embedType: 'dashboard',
        workspaceName: DEMO.workspace,
        name: 'Sales overview',
        accessSettings: { ...DEMO_ACCESS, datamartName: DEMO.datamart },
      })
    } else if (!embed.accessSettings.isAllowMetricCreation) {
      // seeded before the self-serve features: the company now allows them (each token narrows)
      await embeds.update(principal, embed.embedId, DEMO_ACCESS)
    }
  }
  // Open the demo's DuckDB now (it parses the CSV files into memory once), in the background,
  // so the first visitor of /demo does not wait for it.
  const datasource = await datasources.byName(org, DEMO.datasource)
  if (datasource) {
    void datasources
      .connector(datasource)
      .then((c) => c.introspect())
      .catch((err: unknown) => log.warn({ err }, 'demo: warming the datasource failed'))
  }
  return key ? { key } : {}
}
