import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { salesDocument, salesRelationships, salesTables } from '../helpers/analytics.js'
import { createPostgresDatabase, storeKinds } from '../helpers/app.js'
import {
  bootstrapOver,
  type JsonResponse,
  removeDir,
  request,
  type ServerProcess,
  startServer,
  tempDataDir,
} from '../helpers/process.js'
import { requireService } from '../helpers/services.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

/**
 * examples/hosted-backend/backend.mjs, a backend written against the hosted service's API
 * reference, run against the real server process on each metadata store with only its base URL
 * (and the keys it is configured with) changed: every step succeeds and says what it should.
 */
const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)
const SCRIPT = fileURLToPath(new URL('../../../../examples/hosted-backend/backend.mjs', import.meta.url))

interface StepLine {
  readonly step: string
  readonly ok: boolean
  // biome-ignore lint/suspicious/noExplicitAny: the script's own output, asserted field by field
  readonly result?: any
  readonly error?: string
}

describe.skipIf(!hasPg).each(storeKinds)('a backend written for the hosted service, on %s', (store) => {
  let wh: PgWarehouse
  let server: ServerProcess
  let dataDir: string
  let dropDatabase: (() => Promise<void>) | undefined
  let keys: { serviceToken: string; dataAppKey: string }

  beforeAll(async () => {
    wh = await createPgWarehouse()
    dataDir = tempDataDir()
    const env: Record<string, string> = { DATA_DIR: dataDir, RATE_LIMIT: '0', AUTH_ROUTE_RATE_LIMIT: '0' }
    if (store === 'postgres') {
      const database = await createPostgresDatabase()
      env.DATABASE_URL = database.url
      dropDatabase = database.drop
    }
    server = await startServer({ env })
    keys = await bootstrapOver(server.url)
    // what the hosted service's web application set up by hand: the docs/api.md migration steps
    const ok = async (method: string, path: string, body: object) => {
      const res: JsonResponse = await request(server.url, method, path, { body, token: keys.serviceToken })
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200)
    }
    await ok('POST', '/api/v2/datasource', {
      datasourceType: 'postgres',
      credentials: { name: 'warehouse', ...wh.credentials },
    })
    await ok('POST', '/api/v2/data-app/datamarts', {
      name: 'sales',
      datasourceName: 'warehouse',
      tableList: salesTables(wh.schema),
      relationships: salesRelationships(wh.schema),
    })
    await ok('POST', '/api/v2/workspace', { name: 'main', connectionType: 'DATAMART', datamartName: 'sales' })
    await ok('POST', '/api/v2/data-app/import-dashboard', {
      workspaceName: 'main',
      dashboardId: 'sales-overview',
      importDashboardData: salesDocument(wh.schema),
    })
  })

  afterAll(async () => {
    await server?.stop()
    await dropDatabase?.()
    if (dataDir) removeDir(dataDir)
    await wh?.drop()
  })

  it('runs every step end to end with only BASE_URL changed', async () => {
    const run = await runScript({
      BASE_URL: server.url,
      DATABRAIN_API_KEY: keys.dataAppKey,
      DATABRAIN_SERVICE_TOKEN: keys.serviceToken,
    })
    const steps = new Map(run.lines.map((line) => [line.step, line]))
    const failed = run.lines.filter((line) => !line.ok).map((line) => line.step)
    expect(failed, run.stdout).toEqual([])
    expect(run.code).toBe(0)

    const result = (step: string) => steps.get(step)?.result
    expect(result('guest-token').tokenLength).toBeGreaterThan(20)
    const embedId = result('create-embed').id as string
    const metricEmbedId = result('create-metric-embed').id as string
    expect(result('list-embeds').embeds).toEqual(
      expect.arrayContaining([
        { embedId, embedType: 'dashboard', dashboardId: 'sales-overview', metricId: null },
        { embedId: metricEmbedId, embedType: 'metric', dashboardId: null, metricId: 'revenue' },
      ]),
    )
    expect(result('list-dashboards').dashboards).toContain('sales-overview')
    expect(result('list-metrics').metrics).toEqual(['revenue', 'revenue_by_country', 'orders_by_month'])

    // the tenant's revenue in January, as the warehouse computes it
    const [expected] = await wh.query<{ revenue: string }>(
      `select sum(amount) as revenue from ${wh.schema}.orders
        where tenant = 'acme' and created_at >= '2026-01-01T00:00:00Z' and created_at < '2026-02-01T00:00:00Z'`,
    )
    expect(result('query')).toMatchObject({ rows: [{ revenue: Number(expected?.revenue) }], columns: ['revenue'] })

    expect(result('export-embed')).toEqual({ embedId, dashboardId: 'sales-overview' })
    expect(result('reimport')).toMatchObject({
      dashboardId: 'sales-overview-copy',
      message: expect.stringMatching(/3/),
    })
    expect(result('export-dashboard')).toEqual({ dashboardId: 'sales-overview-copy', metrics: 3 })
    if (steps.get('create-client-dashboard')?.ok)
      expect(result('create-client-dashboard').id).toBe('sales-overview-acme')
    expect(result('rename-embed')).toEqual({ id: embedId, name: 'Customer portal: sales (2026)' })
    expect(result('update-embed')).toEqual({ id: embedId })
    expect(result('delete-embed')).toEqual({ id: metricEmbedId })
    // and the deletion is real: the metric embed is gone from the list
    const listed = await request(server.url, 'GET', '/api/v2/data-app/embeds', { token: keys.dataAppKey })
    expect(listed.body.data.map((e: { embedId: string }) => e.embedId)).not.toContain(metricEmbedId)
  })
})

/** The script as its owner runs it: `node backend.mjs` with their environment, nothing else. */
function runScript(env: Record<string, string>): Promise<{ code: number | null; stdout: string; lines: StepLine[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => {
      try {
        const lines = stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as StepLine)
        resolve({ code, stdout: stdout + stderr, lines })
      } catch (error) {
        reject(new Error(`not JSON lines: ${stdout}${stderr} (${error})`))
      }
    })
  })
}
