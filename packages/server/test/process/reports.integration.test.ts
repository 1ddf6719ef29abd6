import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { READ_ONLY_ACCESS } from '../../src/schemas/embeds.js'
import { salesDocument, salesRelationships, salesTables } from '../helpers/analytics.js'
import { createPostgresDatabase } from '../helpers/app.js'
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
import { startSmtp } from '../helpers/smtp.js'
import { useCleanups } from '../helpers/suite.js'
import { createPgWarehouse } from '../helpers/warehouse.js'

/**
 * docs/operations.md#email-reports-smtp: with several instances each report is sent once (a lease in the metadata
 * store). Two server processes (the production build) on one PostgreSQL metadata store, both
 * polling every 100 ms, and a real SMTP server: reports made due at once go out exactly once
 * each, whichever instance takes them.
 */
const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)
const REPORTS = 8

describe.skipIf(!hasPg)('email reports across two instances', () => {
  const cleanups = useCleanups()

  it('sends each due report exactly once', { timeout: 90_000 }, async () => {
    const smtp = await startSmtp()
    cleanups.push(() => smtp.close())
    const wh = await createPgWarehouse()
    cleanups.push(() => wh.drop())
    const database = await createPostgresDatabase()
    cleanups.push(database.drop)
    const env = {
      DATABASE_URL: database.url,
      // both instances open the reports' sealed claims: one key
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'reports@example.com',
      REPORT_POLL_INTERVAL_MS: '100',
      RATE_LIMIT: '0',
      AUTH_ROUTE_RATE_LIMIT: '0',
      EMAIL_RATE_LIMIT: '0',
    }
    const start = async () => {
      const dataDir = tempDataDir()
      cleanups.push(() => removeDir(dataDir))
      const server: ServerProcess = await startServer({ env: { ...env, DATA_DIR: dataDir } })
      cleanups.push(async () => void (await server.stop()))
      return server
    }
    const first = await start()
    const second = await start()

    const ok = (res: JsonResponse, what: string) => {
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(200)
      return res.body
    }
    const { serviceToken: s, dataAppKey: key } = await bootstrapOver(first.url)
    const call = (server: ServerProcess, method: string, path: string, token: string, body?: unknown) =>
      request(server.url, method, path, { token, body })
    ok(
      await call(first, 'POST', '/api/v2/datasource', s, {
        datasourceType: 'postgres',
        credentials: { name: 'warehouse', ...wh.credentials },
      }),
      'datasource',
    )
    ok(
      await call(first, 'POST', '/api/v2/data-app/datamarts', s, {
        name: 'sales',
        datasourceName: 'warehouse',
        tableList: salesTables(wh.schema),
        relationships: salesRelationships(wh.schema),
      }),
      'datamart',
    )
    ok(
      await call(first, 'POST', '/api/v2/workspace', s, {
        name: 'main',
        connectionType: 'DATAMART',
        datamartName: 'sales',
      }),
      'workspace',
    )
    ok(
      await call(first, 'POST', '/api/v2/data-app/import-dashboard', s, {
        workspaceName: 'main',
        dashboardId: 'sales-overview',
        importDashboardData: salesDocument(wh.schema),
      }),
      'dashboard',
    )
    const embed = ok(
      await call(first, 'POST', '/api/v2/data-app/embeds', key, {
        dashboardId: 'sales-overview',
        embedType: 'dashboard',
        workspaceName: 'main',
        name: 'Sales',
        accessSettings: { ...READ_ONLY_ACCESS, isAllowEmailReports: true, datamartName: 'sales' },
      }),
      'embed',
    )

    // reports created on both instances, every one due at the same moment
    const ids: string[] = []
    for (let i = 0; i < REPORTS; i++) {
      const server = i % 2 ? second : first
      const clientId = i % 2 ? 'acme' : 'globex'
      const { token } = ok(
        await call(server, 'POST', '/api/v2/guest-token/create', key, {
          dataAppName: 'salesapp',
          clientId,
          params: { reportRecipients: ['@example.com'] },
        }),
        'guest token',
      )
      const created = ok(
        await call(server, 'POST', `/api/v2/embed/runtime/${embed.id}/reports`, token, {
          name: `report ${i}`,
          metricIds: ['revenue'],
          format: 'csv',
          schedule: { frequency: 'daily', time: '06:00' },
          recipients: [`r${i}@example.com`],
        }),
        'report',
      )
      ids.push(created.data.reportId)
    }
    const store = new pg.Client({ connectionString: database.url })
    await store.connect()
    cleanups.push(() => store.end())
    const due = new Date(Date.now() - 60_000).toISOString()
    await store.query('update email_reports set next_run_at = $1', [due])

    await smtp.waitFor(REPORTS, 30_000)
    // done when no report is due or leased any more: from then on none can be sent again today
    for (;;) {
      const { rows } = await store.query<{ n: string }>(
        `select count(*) as n from email_reports where last_sent_at is null or leased_by is not null or next_run_at <= $1`,
        [new Date().toISOString()],
      )
      if (Number(rows[0]?.n) === 0) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    // and a few more passes of both instances
    await new Promise((resolve) => setTimeout(resolve, 500))

    const recipients = smtp.received.flatMap((m) => m.rcptTo).sort()
    expect(recipients).toEqual(ids.map((_, i) => `r${i}@example.com`).sort())
    expect(smtp.received.map((m) => m.mail.subject).sort()).toEqual(
      ids.map((_, i) => `report ${i} — Sales overview`).sort(),
    )
    // each send was logged by the one instance that held the lease
    const sentBy = (server: ServerProcess) =>
      server.logs.filter((l) => l.msg === 'email report sent').map((l) => String(l.reportId))
    const all = [...sentBy(first), ...sentBy(second)].sort()
    expect(all).toEqual([...ids].sort())
  })
})
