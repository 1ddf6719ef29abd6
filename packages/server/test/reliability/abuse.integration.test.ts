import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ACCESS, salesRelationships, salesTables } from '../helpers/analytics.js'
import { bootstrapOver, removeDir, request, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'
import { createSlowOrders } from '../helpers/warehouse.js'

/**
 * One client must not take the service from the others: a burst from one address is cut at
 * its limit while another address is served; bodies over BODY_LIMIT are refused (413) without
 * being read whole; a tenant flooding slow or huge queries is bounded by QUERY_TIMEOUT_MS and
 * QUERY_ROW_LIMIT while another tenant's queries keep being answered.
 */
const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

describe('abuse over HTTP: rate limits and body size', () => {
  let server: ServerProcess
  let dataDir: string
  let serviceToken: string
  let dataAppKey: string
  const LIMIT = 40

  beforeAll(async () => {
    dataDir = tempDataDir()
    server = await startServer({ env: { DATA_DIR: dataDir, RATE_LIMIT: String(LIMIT), AUTH_ROUTE_RATE_LIMIT: '10' } })
    ;({ serviceToken, dataAppKey } = await bootstrapOver(server.url, { 'x-client-ip': '10.9.9.9' }))
  })
  afterAll(async () => {
    await server?.stop()
    removeDir(dataDir)
  })

  it('cuts a burst from one client at its limit while another client is served', async () => {
    const list = (ip: string) =>
      request(server.url, 'GET', '/api/v2/data-app', { token: serviceToken, headers: { 'x-client-ip': ip } })
    const burst = Array.from({ length: 3 * LIMIT }, () => list('10.1.1.1'))
    const other: Awaited<ReturnType<typeof list>>[] = []
    for (let i = 0; i < 15; i++) other.push(await list('10.2.2.2'))
    const answered = await Promise.all(burst)
    const served = answered.filter((r) => r.status === 200).length
    const limited = answered.filter((r) => r.status === 429)
    expect(served).toBe(LIMIT)
    expect(limited.length).toBe(2 * LIMIT)
    for (const r of limited) {
      expect(r.body.error.code).toBe('RATE_LIMIT_EXCEEDED')
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0)
    }
    expect(other.map((r) => r.status)).toEqual(other.map(() => 200))
    // brute force on sign-in: the auth group's tighter limit
    const guesses = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        request(server.url, 'POST', '/api/v2/admin-account/jwt', {
          body: { email: 'alice@example.com', password: `guess-${i}` },
          headers: { 'x-client-ip': '10.3.3.3' },
        }),
      ),
    )
    const statuses = guesses.map((g) => g.status)
    expect(statuses.filter((s) => s === 400).length).toBe(10)
    expect(statuses.filter((s) => s === 429).length).toBe(15)
    console.log(
      `[abuse] burst of ${burst.length} from one address with RATE_LIMIT=${LIMIT}: ${served} served, ${limited.length} answered 429; ` +
        `another address meanwhile: ${other.filter((r) => r.status === 200).length}/${other.length} served; ` +
        `25 sign-in guesses with AUTH_ROUTE_RATE_LIMIT=10: 10 checked, 15 refused 429`,
    )
  })

  it('refuses a body over BODY_LIMIT with 413, declared or streamed', async () => {
    // without a valid key, the body is not even looked at
    const anonymous = await rawPost(server.port, Buffer.alloc(2 * 1024 * 1024, 'a'), true, 'sk_000000000000_x')
    expect(anonymous.status).toBe(401)
    const declared = await rawPost(server.port, Buffer.alloc(2 * 1024 * 1024, 'a'), true, dataAppKey)
    expect(declared.status).toBe(413)
    expect(JSON.parse(declared.body).error.code).toBe('PAYLOAD_TOO_LARGE')
    // streamed (chunked, no length): refused once past the limit, not buffered to the end
    const streamed = await rawPost(server.port, Buffer.alloc(8 * 1024 * 1024, 'b'), false, dataAppKey)
    expect(streamed.status === 413 || streamed.status === 0, JSON.stringify(streamed)).toBe(true)
    if (streamed.status === 413) expect(JSON.parse(streamed.body).error.code).toBe('PAYLOAD_TOO_LARGE')
    expect((await request(server.url, 'GET', '/health/live')).status).toBe(200)
    console.log(
      `[abuse] 2 MiB body with Content-Length: ${declared.status} in ${declared.ms} ms; ` +
        `8 MiB chunked: ${streamed.status || streamed.error} in ${streamed.ms} ms (BODY_LIMIT 1 MiB)`,
    )
  })
})

/** POSTs `body` as JSON to the guest-token route, with or without a Content-Length. */
function rawPost(
  port: number,
  body: Buffer,
  withLength: boolean,
  key: string,
): Promise<{ status: number; body: string; ms: number; error?: string }> {
  const started = performance.now()
  return new Promise((resolve) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v2/guest-token/create',
      agent: false,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        ...(withLength ? { 'content-length': body.length } : { 'transfer-encoding': 'chunked' }),
      },
    })
    const ms = () => Math.round(performance.now() - started)
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (c: string) => {
        text += c
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, ms: ms() }))
    })
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: 0, body: '', ms: ms(), error: err.code }))
    // in chunks, as a real upload: the server may answer (and close) before the end
    let offset = 0
    let answered = false
    req.once('response', () => {
      answered = true
    })
    const pump = () => {
      while (offset < body.length && !answered) {
        const chunk = body.subarray(offset, offset + 64 * 1024)
        offset += chunk.length
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      req.end()
    }
    // a declared length over the limit (or a bad key) is answered from the headers alone: give
    // the server the moment to say so before the body goes out, as a client using
    // Expect: 100-continue would
    req.flushHeaders()
    setTimeout(pump, withLength ? 1_000 : 0)
  })
}

describe.skipIf(!hasPg)('abuse of the warehouse: one tenant cannot starve another', () => {
  let slowEmbed: string
  const TIMEOUT_MS = 800
  const ROW_LIMIT = 25
  const { wh, a } = useAnalytics('sqlite', {
    app: 'suite',
    env: {
      LOG_LEVEL: 'silent',
      RATE_LIMIT: '0',
      QUERY_TIMEOUT_MS: String(TIMEOUT_MS),
      QUERY_ROW_LIMIT: String(ROW_LIMIT),
      POOL_MAX: '4',
      RESULT_CACHE_TTL_MS: '0',
    },
    prepare: (wh) => createSlowOrders(wh, 30),
  })

  beforeAll(async () => {
    await a.ok('PUT', '/api/v2/data-app/datamarts', a.serviceToken, {
      datamartName: 'sales',
      tableList: salesTables(wh.schema, 'slow_orders'),
      relationships: salesRelationships(wh.schema),
    })
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'heavy',
      importDashboardData: {
        name: 'Heavy',
        metrics: [
          {
            metricId: 'slow',
            name: 'Slow',
            chart: { type: 'single-value', y: ['n'] },
            query: { from: `${wh.schema}.slow_orders`, measures: [{ name: 'n', aggregate: 'count' }] },
            filters: [{ name: 'amount', type: 'number-range', column: 'amount' }],
          },
          {
            metricId: 'all_rows',
            name: 'All rows',
            chart: { type: 'table' },
            query: { from: `${wh.schema}.orders`, dimensions: [{ name: 'id', column: 'id' }] },
          },
        ],
      },
    })
    slowEmbed = (
      await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'heavy',
        embedType: 'dashboard',
        workspaceName: 'main',
        accessSettings: ACCESS,
      })
    ).id
  })

  const query = (embedId: string, metricId: string, clientId: string, metricFilter?: object) =>
    a.call('POST', '/api/v2/data-app/query', a.dataAppKey, {
      embedId,
      metricId,
      clientId,
      ...(metricFilter ? { metricFilter } : {}),
    })

  it('keeps a tenant flooding slow queries to its share of the pool, bounded by QUERY_TIMEOUT_MS; huge results by QUERY_ROW_LIMIT', async () => {
    const started = performance.now()
    let firstFloodAnswerAt: number | undefined
    // twelve different statements (identical ones would share one execution)
    const flood = Array.from({ length: 12 }, (_, i) =>
      query(slowEmbed, 'slow', 'acme', { amount: { min: i } }).then((res) => {
        firstFloodAnswerAt ??= performance.now()
        return res
      }),
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    // another tenant, meanwhile: served from the half of the pool acme cannot take
    const latencies: number[] = []
    for (let i = 0; i < 5; i++) {
      const at = performance.now()
      const res = await query(a.embedId, 'revenue', 'globex')
      expect(res.statusCode, res.body).toBe(200)
      latencies.push(Math.round(performance.now() - at))
    }
    const otherTenantDoneAt = performance.now()
    const slow = await Promise.all(flood)
    const floodMs = Math.round(performance.now() - started)
    for (const res of slow) expect(res.json().error?.code, res.body).toBe('QUERY_TIMEOUT')
    // without per-tenant slots acme's four running queries hold all of POOL_MAX=4 and globex
    // waits behind them until the first are cancelled at QUERY_TIMEOUT_MS
    expect(firstFloodAnswerAt, 'the other tenant waited for the flood').toBeDefined()
    expect(otherTenantDoneAt, 'the other tenant waited for the flood').toBeLessThan(firstFloodAnswerAt as number)
    // and the queued part of the flood does not wait beyond its own timeout either
    expect(floodMs).toBeLessThan(TIMEOUT_MS * 3 + 2_000)
    // a result larger than the row cap is cut at the cap
    const rows = await query(slowEmbed, 'all_rows', 'acme') // about 100 orders
    expect(rows.statusCode, rows.body).toBe(200)
    expect(rows.json().data.length).toBe(ROW_LIMIT)
    // and says so, in a header (the result's body has no field for it); a whole result does not
    expect(rows.headers['strata-truncated']).toBe('true')
    const whole = await query(a.embedId, 'revenue', 'globex')
    expect(whole.headers['strata-truncated']).toBeUndefined()
    const minted = await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
      dataAppName: 'salesapp',
      clientId: 'acme',
      permissions: { isEnableDownloadMetrics: true },
    })
    const viaRuntime = await a.call('POST', `/api/v2/embed/runtime/${slowEmbed}/query`, minted.token, {
      metricId: 'all_rows',
    })
    expect([viaRuntime.statusCode, viaRuntime.json().data?.length], viaRuntime.body).toEqual([200, ROW_LIMIT])
    expect(viaRuntime.headers['strata-truncated']).toBe('true')
    const csv = await a.call('GET', `/api/v2/embed/runtime/${slowEmbed}/metrics/all_rows/download`, minted.token)
    expect(csv.statusCode, csv.body).toBe(200)
    expect(csv.body.trim().split('\r\n')).toHaveLength(ROW_LIMIT + 1) // the header line and the capped rows
    expect(csv.headers['strata-truncated']).toBe('true')
    console.log(
      `[abuse] 12 concurrent slow queries from one tenant (QUERY_TIMEOUT_MS=${TIMEOUT_MS}, POOL_MAX=4, 2 per tenant): all QUERY_TIMEOUT, ` +
        `the first after ${Math.round((firstFloodAnswerAt as number) - started)} ms, the last after ${floodMs} ms; ` +
        `another tenant meanwhile answered in ${latencies.join(', ')} ms, all before the first of the flood; ` +
        `acme's orders with QUERY_ROW_LIMIT=${ROW_LIMIT}: ${rows.json().data.length} rows`,
    )
  })
})
