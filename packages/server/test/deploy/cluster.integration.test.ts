import { randomBytes } from 'node:crypto'
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { createPostgresDatabase } from '../helpers/app.js'
import {
  buildImage,
  containerToolsAvailable,
  freePort,
  podman,
  REPO_DIR,
  startContainer,
  waitForOk,
} from '../helpers/container.js'
import { bootstrapOver, removeDir, request, tempDataDir } from '../helpers/process.js'
import { REDIS_URL, requireService } from '../helpers/services.js'
import { startSmtp, type TestSmtp } from '../helpers/smtp.js'
import { ACCESS_SETTINGS, csvDataset, expectOk, setupFilesAnalytics } from '../reliability/live.js'

/**
 * The multi-instance promises (revocation, shared rate limit, reports sent once, rollups built
 * once, no acknowledged write lost when a replica dies) through deploy/compose.yaml: its three
 * Strata replicas (image, environment, volume as the file declares them) and its nginx
 * (deploy/nginx.conf), run with podman. What this machine imposes, and so what differs from `compose up`: every container uses
 * host networking (this VM gives containers no other network), so each replica gets its own
 * PORT and nginx's upstreams and listen port are rewritten from `strata-N:8080` to
 * `127.0.0.1:<port>`; PostgreSQL and Redis are the machine's own (a fresh database per run)
 * instead of the file's postgres and redis containers, whose images cannot be pulled here; nginx
 * is Debian's nginx on the test base image; TRUST_PROXY is `loopback` since nginx reaches the
 * replicas over 127.0.0.1 rather than a private compose network. podman-compose is not used: the
 * Debian version (1.0.3) ignores `network_mode: host` next to its own network and starts
 * dependencies `--no-deps` leaves out.
 */
const available =
  containerToolsAvailable() &&
  (await requireService('PostgreSQL', '127.0.0.1', 5432)) &&
  (await requireService('Redis', '127.0.0.1', 6379))

interface ComposeService {
  image?: string
  environment?: Record<string, string>
  volumes?: string[]
  depends_on?: Record<string, unknown> | string[]
}
const compose = parse(readFileSync(join(REPO_DIR, 'deploy', 'compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>
}
const REPLICAS = ['strata-1', 'strata-2', 'strata-3'] as const
const RATE_LIMIT = 30
const randomIp = () => `10.${[...randomBytes(3)].join('.')}`

describe.runIf(available)('the compose cluster: three replicas behind nginx, one PostgreSQL, one Redis', () => {
  const cleanups: (() => Promise<unknown> | unknown)[] = []
  const project = `strata-cluster-${randomBytes(3).toString('hex')}`
  const urls: Record<string, string> = {}
  const names: Record<string, string> = {}
  let lb: string
  let creds: Awaited<ReturnType<typeof bootstrapOver>>
  let embedId: string
  let smtp: TestSmtp
  let databaseUrl: string
  // a client address for setup calls, so that the per-client rate limit never counts them with a test's
  const admin = { 'x-forwarded-for': randomIp() }
  const fresh = () => ({ 'x-forwarded-for': randomIp() })

  const startReplica = async (
    service: (typeof REPLICAS)[number],
    env: Record<string, string>,
    volume: string,
    image: string,
  ) => {
    const declared = compose.services[service] as ComposeService
    const port = await freePort()
    const name = `${project}-${service}`
    const environment = { ...declared.environment, ...env, PORT: String(port), HOST: '127.0.0.1' }
    cleanups.push(await startContainer({ name, image, env: environment, volumes: [volume] }))
    urls[service] = `http://127.0.0.1:${port}`
    names[service] = name
  }

  beforeAll(async () => {
    const image = await buildImage()
    const database = await createPostgresDatabase()
    cleanups.push(database.drop)
    databaseUrl = database.url
    smtp = await startSmtp()
    cleanups.push(() => smtp.close())
    const files = csvDataset()
    for (const dir of [files, join(files, 'files')]) chmodSync(dir, 0o755)
    cleanups.push(() => removeDir(files))
    // the file's shared strata-files volume at /data/files, here a folder of CSV files
    const [volume] = (compose.services['strata-1']?.volumes ?? []) as string[]
    expect(volume).toBe('strata-files:/data/files')
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      TRUST_PROXY: 'loopback',
      RATE_LIMIT: String(RATE_LIMIT),
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'reports@example.com',
      REPORT_POLL_INTERVAL_MS: '100',
      EMAIL_RATE_LIMIT: '0',
      ROLLUP_POLL_INTERVAL_MS: '200',
    }
    const mount = `${files}:/data/files:ro`
    // as the file orders them: strata-1 (which applies the migrations) first, the others once it is ready
    await startReplica('strata-1', env, mount, image)
    await waitForOk(`${urls['strata-1']}/health/ready`)
    await Promise.all(REPLICAS.slice(1).map((service) => startReplica(service, env, mount, image)))
    await Promise.all(REPLICAS.map((service) => waitForOk(`${urls[service]}/health/ready`)))

    // nginx with deploy/nginx.conf, its upstreams and listen port moved to this machine's ports
    const lbPort = await freePort()
    const conf = readFileSync(join(REPO_DIR, 'deploy', 'nginx.conf'), 'utf8')
      .replace(/server (strata-\d):8080/g, (_, service: string) => `server ${new URL(urls[service]!).host}`)
      .replace('listen 8080;', `listen 127.0.0.1:${lbPort};`)
    expect(conf).not.toMatch(/strata-\d:8080/)
    const confDir = tempDataDir()
    cleanups.push(() => removeDir(confDir))
    writeFileSync(join(confDir, 'nginx.conf'), conf)
    chmodSync(confDir, 0o755)
    const nginx = `${project}-nginx`
    cleanups.push(
      await startContainer({
        name: nginx,
        image: 'localhost/strata-nginx:test',
        volumes: [`${join(confDir, 'nginx.conf')}:/etc/nginx/nginx.conf:ro`],
      }),
    )
    lb = `http://127.0.0.1:${lbPort}`
    await waitForOk(`${lb}/health/ready`)

    creds = await bootstrapOver(lb, admin)
    ;({ embedId } = await setupFilesAnalytics(lb, creds, admin))
  }, 40 * 60_000)

  /** An embed of the sales dashboard, created through nginx. */
  const createEmbed = async (name: string, accessSettings: object): Promise<string> =>
    expectOk(
      await request(lb, 'POST', '/api/v2/data-app/embeds', {
        token: creds.dataAppKey,
        headers: fresh(),
        body: { dashboardId: 'sales-overview', embedType: 'dashboard', workspaceName: 'main', name, accessSettings },
      }),
      'embed',
    ).id as string

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  it('declares three replicas of one image with one ENCRYPTION_KEY, PostgreSQL and Redis, behind nginx', () => {
    const replicas = REPLICAS.map((service) => compose.services[service] as ComposeService)
    expect(new Set(replicas.map((r) => r.image)).size).toBe(1)
    for (const replica of replicas) {
      expect(replica.environment?.ENCRYPTION_KEY).toMatch(/^\$\{ENCRYPTION_KEY:\?/)
      expect(replica.environment?.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//)
      expect(replica.environment?.REDIS_URL).toBe('redis://redis:6379')
    }
    const conf = readFileSync(join(REPO_DIR, 'deploy', 'nginx.conf'), 'utf8')
    for (const service of REPLICAS) expect(conf).toContain(`server ${service}:8080`)
  })

  it('a key revoked and an embed deleted through one replica are refused by the others at once', async () => {
    const secret = expectOk(
      await request(lb, 'POST', '/api/v2/data-app/api-tokens', {
        token: creds.serviceToken,
        headers: fresh(),
        body: { dataAppName: 'salesapp', name: 'short-lived' },
      }),
      'key',
    ).key as string
    const keyId = /^(sk_[0-9a-f]+)_/.exec(secret)?.[1] as string
    const guest = expectOk(
      await request(lb, 'POST', '/api/v2/guest-token/create', {
        token: secret,
        headers: fresh(),
        body: { dataAppName: 'salesapp', clientId: 'acme' },
      }),
      'mint',
    ).token as string
    // every replica has the key and the token in memory
    for (const service of REPLICAS) {
      const url = urls[service]!
      const opts = { headers: fresh() }
      expect((await request(url, 'GET', '/api/v2/data-app/whitelist-domains', { ...opts, token: secret })).status).toBe(
        200,
      )
      expect((await request(url, 'GET', `/api/v2/embed/runtime/${embedId}`, { ...opts, token: guest })).status).toBe(
        200,
      )
    }
    expectOk(
      await request(urls['strata-1']!, 'DELETE', `/api/v2/data-app/api-tokens?dataAppName=salesapp&key=${keyId}`, {
        token: creds.serviceToken,
        headers: fresh(),
      }),
      'revoke',
    )
    for (const service of REPLICAS.slice(1)) {
      const url = urls[service]!
      const key = await request(url, 'GET', '/api/v2/data-app/whitelist-domains', { token: secret, headers: fresh() })
      const token = await request(url, 'GET', `/api/v2/embed/runtime/${embedId}`, { token: guest, headers: fresh() })
      expect([service, key.status, token.status, token.body.error?.code]).toEqual([
        service,
        401,
        401,
        'AUTHENTICATION_ERROR',
      ])
    }

    // an embed deleted on strata-3: its guest tokens stop on strata-1 and strata-2
    const doomed = await createEmbed('doomed', ACCESS_SETTINGS)
    const token = expectOk(
      await request(lb, 'POST', '/api/v2/guest-token/create', {
        token: creds.dataAppKey,
        headers: fresh(),
        body: { dataAppName: 'salesapp', clientId: 'globex' },
      }),
      'mint',
    ).token as string
    for (const service of REPLICAS) {
      const res = await request(urls[service]!, 'GET', `/api/v2/embed/runtime/${doomed}`, { token, headers: fresh() })
      expect(res.status).toBe(200)
    }
    expectOk(
      await request(urls['strata-3']!, 'DELETE', `/api/v2/data-app/embeds?embedId=${doomed}`, {
        token: creds.dataAppKey,
        headers: fresh(),
      }),
      'delete',
    )
    for (const service of REPLICAS.slice(0, 2)) {
      const res = await request(urls[service]!, 'GET', `/api/v2/embed/runtime/${doomed}`, { token, headers: fresh() })
      expect([service, res.status]).toEqual([service, 401])
    }
  })

  it('counts one client across the replicas: the limit holds through nginx and on each replica', async () => {
    const client = { 'x-forwarded-for': randomIp() }
    const list = (url: string) =>
      request(url, 'GET', '/api/v2/data-app', { token: creds.serviceToken, headers: client })
    // a third of the allowance on each replica directly, the rest through nginx
    const served: number[] = []
    for (let i = 0; i < RATE_LIMIT; i++) {
      const url = i < 3 ? (urls[REPLICAS[i % 3]!] as string) : lb
      const res = await list(url)
      served.push(res.status)
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^limit=${RATE_LIMIT}, remaining=${RATE_LIMIT - 1 - i},`))
    }
    expect(served.every((status) => status === 200)).toBe(true)
    for (const url of [lb, ...REPLICAS.map((service) => urls[service]!)]) {
      const res = await list(url)
      expect([res.status, res.body.error?.code]).toEqual([429, 'RATE_LIMIT_EXCEEDED'])
    }
    // another client is served
    expect((await request(lb, 'GET', '/api/v2/data-app', { token: creds.serviceToken, headers: fresh() })).status).toBe(
      200,
    )
  })

  it('sends each due scheduled report once, whichever replica takes it', async () => {
    const REPORTS = 6
    const embed = await createEmbed('reports', { ...ACCESS_SETTINGS, isAllowEmailReports: true })
    const ids: string[] = []
    for (let i = 0; i < REPORTS; i++) {
      // created on each replica in turn
      const url = urls[REPLICAS[i % 3]!] as string
      const token = expectOk(
        await request(url, 'POST', '/api/v2/guest-token/create', {
          token: creds.dataAppKey,
          headers: fresh(),
          body: { dataAppName: 'salesapp', clientId: 'acme', params: { reportRecipients: ['@example.com'] } },
        }),
        'mint',
      ).token as string
      const created = expectOk(
        await request(url, 'POST', `/api/v2/embed/runtime/${embed}/reports`, {
          token,
          headers: fresh(),
          body: {
            name: `report ${i}`,
            metricIds: ['revenue'],
            format: 'csv',
            schedule: { frequency: 'daily', time: '06:00' },
            recipients: [`r${i}@example.com`],
          },
        }),
        'report',
      )
      ids.push(created.data.reportId)
    }
    // all due at once: the three replicas (polling every 100 ms) race for them
    const store = new pg.Client({ connectionString: databaseUrl })
    await store.connect()
    try {
      await store.query('update email_reports set next_run_at = $1', [new Date(Date.now() - 60_000).toISOString()])
      await smtp.waitFor(REPORTS, 30_000)
      for (;;) {
        const { rows } = await store.query<{ n: string }>(
          'select count(*) as n from email_reports where last_sent_at is null or leased_by is not null or next_run_at <= $1',
          [new Date().toISOString()],
        )
        if (Number(rows[0]?.n) === 0) break
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    } finally {
      await store.end()
    }
    // a few more passes of every replica: nothing is sent again
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const recipients = smtp.received.flatMap((m) => m.rcptTo).sort()
    expect(recipients).toEqual(ids.map((_, i) => `r${i}@example.com`).sort())
  })

  it('builds each rollup a dashboard declares once, whichever replica takes it', async () => {
    // the sales dashboard again with six rollups, imported through nginx: a build takes longer
    // than a poll (200 ms), so while one replica builds, the others list the rest and race for
    // them; only the lease keeps a rollup from being built twice
    const rollups = (['hour', 'day', 'week', 'month', 'quarter', 'year'] as const).map((grain) => ({
      name: `orders_by_${grain}`,
      from: 'main.orders',
      time: { column: 'created_at', grain },
      dimensions: ['status', 'channel'],
      measures: [
        { name: 'orders', aggregate: 'count' },
        { name: 'revenue', aggregate: 'sum', column: 'amount' },
      ],
    }))
    const exported = expectOk(
      await request(lb, 'POST', '/api/v2/data-app/export-dashboard', {
        token: creds.serviceToken,
        headers: admin,
        body: { workspaceName: 'main', dashboardId: 'sales-overview' },
      }),
      'export',
    )
    expectOk(
      await request(lb, 'POST', '/api/v2/data-app/import-dashboard', {
        token: creds.serviceToken,
        headers: admin,
        body: {
          workspaceName: 'main',
          dashboardId: 'rolled-up',
          importDashboardData: { ...exported.data, rollups },
        },
      }),
      'import',
    )
    const store = new pg.Client({ connectionString: databaseUrl })
    await store.connect()
    let rows: { name: string; state: string; leased_by: string | null; last_error: string | null }[] = []
    try {
      // the three replicas (polling every 200 ms) race for each rollup's lease
      const deadline = Date.now() + 60_000
      for (;;) {
        rows = (
          await store.query(
            `select r.name, r.state, r.leased_by, r.last_error from rollups r
               join dashboards d on d.id = r.dashboard_row_id where d.dashboard_id = 'rolled-up' order by r.name`,
          )
        ).rows
        if (rows.length > 0 && rows.every((r) => r.state !== 'stale' && r.state !== 'building')) break
        if (Date.now() > deadline) throw new Error(`rollups not built in 60 s: ${JSON.stringify(rows)}`)
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    } finally {
      await store.end()
    }
    expect(rows.length).toBeGreaterThan(0)
    for (const r of rows)
      expect(r, JSON.stringify(r)).toMatchObject({ state: 'ready', leased_by: null, last_error: null })
    // a few more passes of every replica: nothing is built again (the next refresh is a day away)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const built: string[] = []
    const builders = new Set<string>()
    for (const service of REPLICAS) {
      const logs = await podman('logs', names[service] as string)
      for (const line of logs.split('\n')) {
        if (!line.includes('"rollup built"')) continue
        built.push((JSON.parse(line) as { rollup: string }).rollup)
        builders.add(service)
      }
    }
    expect(rows.map((r) => r.name).sort()).toEqual(rollups.map((r) => r.name).sort())
    expect(built.sort()).toEqual(rows.map((r) => r.name).sort())
    // the race happened: the builds were spread over more than one replica
    expect(builders.size, `built by ${[...builders].join(', ')}`).toBeGreaterThan(1)
    const listed = expectOk(
      await request(lb, 'GET', '/api/v2/data-app/rollups', { token: creds.serviceToken, headers: admin }),
      'list',
    ).data as { dashboardId: string; state: string }[]
    expect(listed.filter((r) => r.dashboardId === 'rolled-up').map((r) => r.state)).toEqual(rows.map(() => 'ready'))
  })

  it('killing one replica mid-load loses no acknowledged write, and no request beyond those in flight on it', async () => {
    const CONCURRENCY = 6
    const outcomes: { name: string; status: number; at: number }[] = []
    let killedAt = Number.POSITIVE_INFINITY
    let stop = false
    let n = 0
    const worker = async () => {
      while (!stop) {
        const name = `load-${n++}`
        let status = 0
        try {
          const res = await request(lb, 'POST', '/api/v2/data-app/api-tokens', {
            token: creds.serviceToken,
            // one client address per request: the rate limit is not what this test measures
            headers: { 'x-forwarded-for': randomIp() },
            body: { dataAppName: 'salesapp', name },
          })
          status = res.status
        } catch {
          status = -1
        }
        outcomes.push({ name, status, at: performance.now() })
      }
    }
    const workers = Array.from({ length: CONCURRENCY }, worker)
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    await podman('kill', '--signal', 'KILL', names['strata-2']!)
    killedAt = performance.now()
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    stop = true
    await Promise.all(workers)

    const acknowledged = outcomes.filter((o) => o.status === 200)
    const failed = outcomes.filter((o) => o.status !== 200)
    const afterKill = outcomes.filter((o) => o.at > killedAt + 500)
    console.log(
      `[cluster] ${outcomes.length} writes through nginx, strata-2 killed mid-load: ${acknowledged.length} acknowledged, ${failed.length} failed (${failed.map((f) => f.status).join(' ')}), ${afterKill.length} after the kill`,
    )
    // only requests in flight on the killed replica may fail: at most one per concurrent client
    expect(failed.length).toBeLessThanOrEqual(CONCURRENCY)
    expect(afterKill.length).toBeGreaterThan(0)
    expect(afterKill.every((o) => o.status === 200)).toBe(true)
    // every acknowledged write is there, read through the surviving replicas
    const listed = expectOk(
      await request(lb, 'GET', '/api/v2/data-app/api-tokens?dataAppName=salesapp', {
        token: creds.serviceToken,
        headers: fresh(),
      }),
      'list',
    )
    const rows = (listed.data ?? listed) as { name: string }[]
    const saved = new Set(rows.map((row) => row.name))
    expect(acknowledged.filter((o) => !saved.has(o.name)).map((o) => o.name)).toEqual([])
  })
})
