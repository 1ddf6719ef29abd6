import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { rollupSql } from '../lib/compiled.mjs'
import { api } from '../lib/http.mjs'
import { cpuMsOf, processTree } from '../lib/proc.mjs'
import { createAccount, createMart, importDashboard } from '../lib/setup.mjs'
import { CHANNELS, createSlowWarehouse, REGIONS, SLEEP_SECONDS, SLOW_TENANTS } from '../lib/slow-warehouse.mjs'
import { median, round } from '../lib/stats.mjs'
import { startStrata } from './server.mjs'

export const ROLLUP_SCENARIOS = {
  'rollup-warehouse-queries':
    'Slow warehouse (500 ms per query): queries reaching it from dashboard loads (9 metrics, 100 tenants, varied filters and presets), with rollups against without',
  'rollup-cold-draw':
    'Slow warehouse: a dashboard whose metrics all fit its rollup, drawn with a cold result cache, against its cache hit',
  'rollup-refresh': "Rollup incremental refresh (7 days), against the warehouse's own GROUP BY of the same window",
  'rollup-correctness': "Rollup-served answers against the warehouse's (sampled tenants × filters × presets)",
}

const TARGETS = { fewer: 0.95, coldDraw: 2, refresh: 1.2 }
const PRESETS = [
  'Last 7 days',
  'Last 30 days',
  'Last 90 days',
  'This month',
  'Last month',
  'This quarter',
  'This year',
  'Last 12 months',
  'All time',
]
const DAY = 86_400_000
const INCREMENTAL = '7 days'
/**
 * The slow view each dashboard reads: one each, so that a dashboard's answers never come from
 * the result cache another dashboard filled (the compiled SQL names the view).
 */
const VIEWS = { plain: 'orders_plain', declared: 'orders_declared', auto: 'orders_auto' }

/** The nine structured metrics of the slow dashboard: totals, time series at three grains, breakdowns. */
function metrics(from) {
  const sum = (name = 'revenue') => ({ name, aggregate: 'sum', column: 'amount' })
  const count = { name: 'orders', aggregate: 'count' }
  return [
    { metricId: 'revenue', name: 'Revenue', chart: { type: 'single-value' }, query: { from, measures: [sum()] } },
    { metricId: 'orders', name: 'Orders', chart: { type: 'single-value' }, query: { from, measures: [count] } },
    {
      metricId: 'avg_order',
      name: 'Average order',
      chart: { type: 'single-value' },
      query: { from, measures: [{ name: 'avg_amount', aggregate: 'avg', column: 'amount' }] },
    },
    {
      metricId: 'amount_range',
      name: 'Smallest and largest order',
      chart: { type: 'table' },
      query: {
        from,
        measures: [
          { name: 'smallest', aggregate: 'min', column: 'amount' },
          { name: 'largest', aggregate: 'max', column: 'amount' },
        ],
      },
    },
    {
      metricId: 'revenue_by_day',
      name: 'Revenue by day',
      chart: { type: 'line', x: 'day', y: ['revenue', 'orders'] },
      query: {
        from,
        measures: [sum(), count],
        dimensions: [{ name: 'day', column: 'created_at', timeGrain: 'day' }],
        orderBy: [{ name: 'day', direction: 'asc' }],
      },
    },
    {
      metricId: 'revenue_by_month',
      name: 'Revenue by month',
      chart: { type: 'bar', x: 'month', y: ['revenue'] },
      query: {
        from,
        measures: [sum()],
        dimensions: [{ name: 'month', column: 'created_at', timeGrain: 'month' }],
        orderBy: [{ name: 'month', direction: 'asc' }],
      },
    },
    {
      metricId: 'revenue_by_week_region',
      name: 'Revenue by week and region',
      chart: { type: 'stacked-bar', x: 'week', y: ['revenue'] },
      query: {
        from,
        measures: [sum()],
        dimensions: [
          { name: 'week', column: 'created_at', timeGrain: 'week' },
          { name: 'region', column: 'region' },
        ],
        orderBy: [
          { name: 'week', direction: 'asc' },
          { name: 'region', direction: 'asc' },
        ],
      },
    },
    {
      metricId: 'orders_by_channel',
      name: 'Orders by channel',
      chart: { type: 'pie', x: 'channel', y: ['orders'] },
      filters: [{ name: 'status', label: 'Status', type: 'multi-select', column: 'status' }],
      query: {
        from,
        measures: [count, { name: 'items', aggregate: 'sum', column: 'quantity' }],
        dimensions: [{ name: 'channel', column: 'channel' }],
        orderBy: [{ name: 'channel', direction: 'asc' }],
      },
    },
    {
      metricId: 'paid_by_region',
      name: 'Paid revenue by region',
      chart: { type: 'bar', x: 'region', y: ['revenue'] },
      query: {
        from,
        measures: [sum(), { name: 'avg_amount', aggregate: 'avg', column: 'amount' }],
        dimensions: [{ name: 'region', column: 'region' }],
        where: [{ column: 'status', operator: 'eq', values: ['paid'] }],
        orderBy: [{ name: 'region', direction: 'asc' }],
      },
    },
  ]
}

/** The rollup every metric above fits: days × region × channel × status (the tenant column is added by the server). */
const dailyRollup = (name, from) => ({
  name,
  from,
  time: { column: 'created_at', grain: 'day' },
  dimensions: ['region', 'channel', 'status'],
  measures: [
    { name: 'revenue', aggregate: 'sum', column: 'amount' },
    { name: 'orders', aggregate: 'count' },
    { name: 'items', aggregate: 'sum', column: 'quantity' },
    { name: 'smallest', aggregate: 'min', column: 'amount' },
    { name: 'largest', aggregate: 'max', column: 'amount' },
    { name: 'avg_amount', aggregate: 'avg', column: 'amount' },
  ],
  refresh: { every: '1h', incremental: INCREMENTAL },
})

/** The slow dashboard: its filters (region, channel, a date range), the nine metrics, and `rollups` as given. */
function slowDashboard(name, from, rollups) {
  const list = metrics(from)
  return {
    name,
    filters: [
      { name: 'region', label: 'Region', type: 'multi-select', table: from, column: 'region' },
      { name: 'channel', label: 'Channel', type: 'multi-select', table: from, column: 'channel' },
      { name: 'period', label: 'Date', type: 'date-range', table: from, column: 'created_at' },
    ],
    layout: list.map((m, i) => ({ metricId: m.metricId, x: (i % 3) * 4, y: Math.floor(i / 3) * 4, w: 4, h: 4 })),
    metrics: list,
    ...(rollups === undefined ? {} : { rollups }),
  }
}

/** A small seeded generator (mulberry32): the same loads in every run and for every dashboard. */
function seeded(seed) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  const int = (n) => Math.floor(next() * n)
  const pick = (list) => list[int(list.length)]
  const some = (list, k) => [...list].sort(() => next() - 0.5).slice(0, k)
  return { next, int, pick, some }
}

/**
 * `count` dashboard loads by `tenants` tenants: each a tenant, a date preset, maybe one or two
 * regions, maybe a channel, and for a third of them the status filter of `orders_by_channel`.
 */
function dashboardLoads(count, tenants, seed) {
  const r = seeded(seed)
  return Array.from({ length: count }, () => {
    const filter = { period: r.pick(PRESETS) }
    if (r.next() < 0.6) filter.region = r.some(REGIONS, 1 + r.int(2))
    if (r.next() < 0.3) filter.channel = [r.pick(CHANNELS)]
    return { tenant: `t${r.int(tenants)}`, filter, status: r.next() < 1 / 3 ? ['paid'] : undefined }
  })
}

/**
 * Filters no dashboard load above uses (three regions, or an explicit date range): what the
 * correctness pass and the cold draws send, so that their answers never come from the result
 * cache the loads filled.
 */
function freshFilters(count, seed, wh, { presets }) {
  const r = seeded(seed)
  return Array.from({ length: count }, (_, i) => {
    const filter = { region: r.some(REGIONS, 3) }
    if (presets && i % 2 === 0) filter.period = r.pick(PRESETS)
    else {
      const start = new Date(wh.anchor.getTime() - (1 + r.int(wh.spanDays - 10)) * DAY)
      const end = new Date(start.getTime() + r.int(60) * DAY)
      filter.period = { startDate: start.toISOString().slice(0, 10), endDate: end.toISOString().slice(0, 10) }
    }
    if (r.next() < 0.3) filter.channel = [r.pick(CHANNELS)]
    return { tenant: `t${r.int(SLOW_TENANTS)}`, filter, status: r.next() < 1 / 3 ? ['paid'] : undefined }
  })
}

/** The nine metric queries of one dashboard load, in parallel as the web component sends them. */
async function drawDashboard(setup, dashboard, load) {
  const started = performance.now()
  const answers = await Promise.all(
    setup.metricIds.map((metricId) =>
      api(setup.url, 'POST', '/api/v2/data-app/query', {
        token: setup.dataAppKey,
        body: {
          embedId: setup.embeds[dashboard],
          metricId,
          clientId: load.tenant,
          dashboardFilter: load.filter,
          ...(metricId === 'orders_by_channel' && load.status ? { metricFilter: { status: load.status } } : {}),
        },
      }),
    ),
  )
  return { ms: performance.now() - started, answers }
}

const tally = (counts, answer) => {
  const from = answer.servedFrom ?? 'unreported'
  counts[from] = (counts[from] ?? 0) + 1
}

/** Every state of the organization's rollups, by `dashboardId/name`. */
async function rollupStates(setup) {
  const { data } = await api(setup.url, 'GET', '/api/v2/data-app/rollups', { token: setup.serviceToken })
  return new Map(data.map((r) => [`${r.dashboardId}/${r.name}`, r]))
}

/** Waits until every rollup of these dashboards is built (`ready`) after `after` (ISO); throws on `failed`. */
async function untilBuilt(setup, dashboards, after, timeoutMs) {
  const started = performance.now()
  for (;;) {
    const states = [...(await rollupStates(setup)).values()].filter((r) => dashboards.includes(r.dashboardId))
    const failed = states.find((r) => r.state === 'failed' && r.lastRefreshAt > after)
    if (failed) throw new Error(`rollup ${failed.name} of ${failed.dashboardId} failed: ${failed.lastError}`)
    if (states.length > 0 && states.every((r) => r.state === 'ready' && r.lastRefreshAt > after)) return states
    if (performance.now() - started > timeoutMs) {
      throw new Error(
        `rollups not built in ${timeoutMs / 1000} s: ${JSON.stringify(states.map((r) => [r.name, r.state]))}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * bench/README.md, the rollup rows: a slow warehouse (a PostgreSQL view that waits 500 ms per
 * query, in a database of its own), one Strata with the result cache on, the same nine-metric
 * dashboard imported three times (no rollups, declared rollups, `"auto"`) and once more over the
 * underlying table for the refresh row.
 */
export async function rollupScenarios(ctx, record) {
  const { opts, log } = ctx
  const smoke = opts.smoke
  const rows = opts.rollupRows ?? (smoke ? 2_000 : 300_000)
  const bigRows = opts.rollupRefreshRows ?? rows
  const loadsCount = opts.rollupLoads ?? (smoke ? 20 : 1_000)
  const tenants = smoke ? 5 : SLOW_TENANTS
  log(
    `slow warehouse: ${rows.toLocaleString('en-US')} orders${bigRows !== rows ? `, ${bigRows.toLocaleString('en-US')} for the refresh row` : ''}`,
  )
  // smoke: two months of orders (a rollup's files are one per month, each written on its own)
  const wh = await createSlowWarehouse({
    rows,
    bigRows,
    views: Object.values(VIEWS),
    spanDays: smoke ? 45 : undefined,
    log,
  })
  const server = { stop: async () => {} }
  try {
    const sleep = await wh.checkSleep()
    log(
      `the slow view: one ${SLEEP_SECONDS} s wait per query (${sleep.rowsRead} rows read in ${sleep.ms.toFixed(0)} ms)`,
    )
    Object.assign(
      server,
      await startStrata(ctx, 'strata-rollups', {
        // the loads' concurrency (4 dashboards × 9 metrics) is what the pool serves at once
        POOL_MAX: '36',
        // a refresh starts within 25 ms of being asked for (the refresh row times it)
        ROLLUP_POLL_INTERVAL_MS: '25',
        ROLLUP_MAX_ROWS: '50000000',
      }),
    )
    const counter = await wh.counter()
    const started = performance.now()
    // only the dashboards the wanted rows read: every rollup imported is built before they run
    const slowRows = ['rollup-warehouse-queries', 'rollup-cold-draw', 'rollup-correctness']
    const dashboards = [
      ...(slowRows.some(ctx.wants) ? ['plain', 'declared', 'auto'] : []),
      ...(ctx.wants('rollup-refresh') ? ['refresh'] : []),
    ]
    const setup = await setUp(server.url, wh, dashboards)
    const built = await untilBuilt(
      setup,
      dashboards.filter((d) => d !== 'plain'),
      '',
      1_800_000,
    )
    await counter.close()
    setup.build = {
      seconds: round((performance.now() - started) / 1000, 1),
      slowViewQueries: counter.n,
      rollups: built,
    }
    log(
      `rollups built in ${setup.build.seconds} s with ${counter.n} queries through the slow view: ` +
        built.map((r) => `${r.dashboardId}/${r.name} ${r.rows} rows`).join(', '),
    )

    const correctness = ctx.wants('rollup-correctness')
      ? await correctnessPass(ctx, setup, wh, smoke ? 4 : 60)
      : undefined
    if (ctx.wants('rollup-cold-draw'))
      record('rollup-cold-draw', await coldDraw(ctx, setup, wh, server, smoke ? 2 : 15))
    if (ctx.wants('rollup-warehouse-queries')) {
      record('rollup-warehouse-queries', await warehouseQueries(ctx, setup, wh, loadsCount, tenants))
    }
    if (correctness) record('rollup-correctness', correctness)
    if (ctx.wants('rollup-refresh')) record('rollup-refresh', await refreshCost(ctx, setup, wh, smoke ? 1 : 5))
  } finally {
    await server.stop()
    await wh.drop().catch((err) => log(`could not drop ${wh.database}: ${err.message}`))
  }
}

/** Account, datasource, one datamart and workspace, the dashboards named (of the four) and their embeds. */
export async function setUp(url, wh, dashboards) {
  const account = await createAccount(url)
  await api(url, 'POST', '/api/v2/datasource', {
    token: account.serviceToken,
    body: { datasourceType: 'postgres', credentials: { name: 'slow', ...wh.credentials } },
  })
  const view = (d) => `${wh.schema}.${VIEWS[d]}`
  const big = `${wh.schema}.${wh.bigTable}`
  const tableList = [
    ...Object.values(VIEWS).map((name) => ({ schemaName: wh.schema, name, clientColumn: 'tenant' })),
    { schemaName: wh.schema, name: wh.bigTable, clientColumn: 'tenant' },
  ]
  const mart = { name: 'slowmart', datasourceName: 'slow', tableList, workspace: 'slow' }
  await createMart(url, account, mart)
  const docs = {
    plain: slowDashboard('Orders (warehouse only)', view('plain')),
    declared: slowDashboard('Orders (declared rollup)', view('declared'), [
      dailyRollup('orders_daily', view('declared')),
    ]),
    auto: slowDashboard('Orders (auto rollups)', view('auto'), 'auto'),
    refresh: slowDashboard('Orders (refresh)', big, [dailyRollup('orders_daily', big)]),
  }
  const embeds = {}
  for (const id of dashboards) {
    const doc = docs[id]
    embeds[id] = await importDashboard(url, account, { ...mart, dashboardId: id, doc })
  }
  return { url, ...account, embeds, docs, tableList, metricIds: docs.plain.metrics.map((m) => m.metricId) }
}

/** Numbers as numbers (a driver's numeric text too); equal within 1e-9 of their size when not whole. */
function sameValue(a, b) {
  const num = (v) => (typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v)
  const x = num(a)
  const y = num(b)
  if (typeof x === 'number' && typeof y === 'number') {
    if (Number.isInteger(x) && Number.isInteger(y)) return x === y
    return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y))
  }
  return JSON.stringify(x) === JSON.stringify(y)
}

/** Where two metric answers differ (rows in order, every column), or undefined when they agree. */
function difference(answer, expected) {
  const rows = answer.data ?? []
  const want = expected.data ?? []
  if (rows.length !== want.length) return `${rows.length} rows, the warehouse ${want.length}`
  for (const [i, row] of rows.entries()) {
    const keys = Object.keys(want[i]).sort()
    if (JSON.stringify(Object.keys(row).sort()) !== JSON.stringify(keys)) {
      return `row ${i}: columns ${Object.keys(row)} against ${keys}`
    }
    for (const k of keys) {
      if (!sameValue(row[k], want[i][k]))
        return `row ${i}, ${k}: ${JSON.stringify(row[k])} against ${JSON.stringify(want[i][k])}`
    }
  }
  if (answer.totalRecords !== expected.totalRecords)
    return `totalRecords ${answer.totalRecords} against ${expected.totalRecords}`
  return undefined
}

/**
 * The correctness pass: sampled tenants × filters × presets (values no load uses, so no answer
 * comes from the result cache), each drawn on the dashboards with rollups (declared and auto)
 * and on the one without; every answer must equal the warehouse's. A difference is an error:
 * the run exits non-zero.
 */
async function correctnessPass(ctx, setup, wh, samples) {
  ctx.log(`correctness pass: ${samples} tenant × filter × preset samples, 9 metrics, declared and auto against none`)
  const served = { declared: {}, auto: {}, plain: {} }
  const mismatches = []
  let compared = 0
  for (const sample of freshFilters(samples, 3, wh, { presets: true })) {
    const [plain, declared, auto] = await Promise.all(
      ['plain', 'declared', 'auto'].map((d) => drawDashboard(setup, d, sample)),
    )
    for (const a of plain.answers) tally(served.plain, a)
    for (const [dashboard, draw] of [
      ['declared', declared],
      ['auto', auto],
    ]) {
      for (const [i, answer] of draw.answers.entries()) {
        tally(served[dashboard], answer)
        compared++
        const diff = difference(answer, plain.answers[i])
        if (diff)
          mismatches.push({ dashboard, metricId: setup.metricIds[i], servedFrom: answer.servedFrom, ...sample, diff })
      }
    }
  }
  const fromRollup = (served.declared.rollup ?? 0) + (served.auto.rollup ?? 0)
  for (const m of mismatches.slice(0, 10)) ctx.log(`MISMATCH ${JSON.stringify(m)}`)
  const status = mismatches.length > 0 ? 'error' : fromRollup === 0 ? 'fail' : 'pass'
  const note =
    mismatches.length > 0
      ? `${mismatches.length} of ${compared} answers differ from the warehouse's; first: ${mismatches[0].dashboard}/${mismatches[0].metricId} ${mismatches[0].tenant}: ${mismatches[0].diff}`
      : fromRollup === 0
        ? 'no answer was served from a rollup: nothing proven (this build does not serve from rollups)'
        : undefined
  return {
    kind: 'correctness',
    status,
    ...(note ? { note } : {}),
    scenario: { samples, compared, fromRollup, mismatches: mismatches.length, servedFrom: served },
    firstMismatches: mismatches.slice(0, 10),
  }
}

/**
 * Cold draws against cache hits, alternating: a dashboard load with filter values never used
 * before (an explicit date range and three regions: no cached result), then the same load
 * again (every answer from the result cache). The first two pairs warm up.
 */
async function coldDraw(ctx, setup, wh, server, rounds) {
  ctx.log(`cold draw: ${rounds} rounds, a new filter each (cold result cache) against the same load again (cache hit)`)
  const warmup = 2
  const cold = []
  const hit = []
  const served = { cold: {}, hit: {} }
  // CPU of the server and of its engine process (its descendants) during each draw: the work, which the
  // machine's noise does not blur as it does the draw's time (10 ms ticks, summed over the rounds)
  const pids = processTree(server.pid)
  const cpu = { cold: { server: 0, engine: 0 }, hit: { server: 0, engine: 0 } }
  const add = (into, before, after) => {
    into.server += (after[0] ?? 0) - (before[0] ?? 0)
    for (let k = 1; k < pids.length; k++) into.engine += (after[k] ?? 0) - (before[k] ?? 0)
  }
  for (const [i, load] of freshFilters(rounds + warmup, 5, wh, { presets: false }).entries()) {
    const t0 = cpuMsOf(pids)
    const first = await drawDashboard(setup, 'declared', load)
    const t1 = cpuMsOf(pids)
    const again = await drawDashboard(setup, 'declared', load)
    const t2 = cpuMsOf(pids)
    if (i < warmup) continue
    cold.push(first.ms)
    hit.push(again.ms)
    add(cpu.cold, t0, t1)
    add(cpu.hit, t1, t2)
    for (const a of first.answers) tally(served.cold, a)
    for (const a of again.answers) tally(served.hit, a)
  }
  const perDraw = (c) => ({ server: round(c.server / cold.length, 1), engine: round(c.engine / cold.length, 1) })
  const ratio = round(median(cold) / median(hit))
  const notRollup = cold.length * setup.metricIds.length - (served.cold.rollup ?? 0)
  return {
    kind: 'draw-time',
    status: ratio <= TARGETS.coldDraw ? 'pass' : 'fail',
    ...(notRollup > 0
      ? { note: `${notRollup} of ${cold.length * setup.metricIds.length} cold queries were not served from the rollup` }
      : {}),
    ratio,
    target: { ratio: TARGETS.coldDraw },
    scenario: {
      medianMs: round(median(cold)),
      minMs: round(Math.min(...cold)),
      rounds: cold.length,
      servedFrom: served.cold,
      cpuMsPerDraw: perDraw(cpu.cold),
    },
    baseline: {
      medianMs: round(median(hit)),
      minMs: round(Math.min(...hit)),
      servedFrom: served.hit,
      cpuMsPerDraw: perDraw(cpu.hit),
    },
  }
}

/**
 * The same seeded dashboard loads on the dashboard without rollups, then with declared rollups,
 * then with `"auto"`; the queries that reached the warehouse are counted by the warehouse itself
 * (the slow view's notifications), cross-checked with the answers' `servedFrom`.
 */
async function warehouseQueries(ctx, setup, wh, count, tenants) {
  const loads = dashboardLoads(count, tenants, 1)
  ctx.log(
    `warehouse queries: ${count} dashboard loads by ${tenants} tenants, 4 at a time, without rollups, declared, auto`,
  )
  const counter = await wh.counter()
  const runs = {}
  try {
    for (const dashboard of ['plain', 'declared', 'auto']) {
      const before = counter.n
      const served = {}
      const started = performance.now()
      let next = 0
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < loads.length) {
            const { answers } = await drawDashboard(setup, dashboard, loads[next++])
            for (const a of answers) tally(served, a)
          }
        }),
      )
      const seconds = round((performance.now() - started) / 1000, 1)
      // each query's notification is sent when it commits, before its answer: this is slack for the socket
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      runs[dashboard] = {
        warehouseQueries: counter.n - before,
        metricQueries: count * setup.metricIds.length,
        seconds,
        servedFrom: served,
      }
      ctx.log(
        `  ${dashboard}: ${runs[dashboard].warehouseQueries} warehouse queries in ${seconds} s; served from ${JSON.stringify(served)}`,
      )
    }
  } finally {
    await counter.close()
  }
  const ratio = round(runs.declared.warehouseQueries / runs.plain.warehouseQueries, 4)
  const notes = []
  for (const [d, r] of Object.entries(runs)) {
    const claimed = r.servedFrom.warehouse
    if (claimed !== undefined && claimed !== r.warehouseQueries) {
      notes.push(`${d}: the warehouse counted ${r.warehouseQueries} queries, the answers say ${claimed}`)
    }
    if (r.servedFrom.unreported) notes.push(`${d}: ${r.servedFrom.unreported} answers without servedFrom`)
  }
  return {
    kind: 'warehouse-queries',
    status: ratio <= 1 - TARGETS.fewer ? 'pass' : 'fail',
    ...(notes.length ? { note: notes.join('; ') } : {}),
    ratio,
    fewerPct: round((1 - ratio) * 100, 1),
    target: { fewerPct: TARGETS.fewer * 100 },
    loads: count,
    tenants,
    scenario: runs.declared,
    // the builds' own queries through the slow views (one per rollup build), before the loads
    builds: { slowViewQueries: setup.build.slowViewQueries, seconds: setup.build.seconds },
    auto: { ...runs.auto, ratio: round(runs.auto.warehouseQueries / runs.plain.warehouseQueries, 4) },
    baseline: runs.plain,
  }
}

/**
 * An incremental refresh (POST …/rollups/refresh, the state polled until `ready` again; the
 * time to the build's recorded end) against the same window's GROUP BY, the server's own
 * statement, run directly with `pg` on the same table; alternating, after one of each to warm up.
 */
async function refreshCost(ctx, setup, wh, rounds) {
  const { sql, params, since } = await rollupSql({
    root: ctx.root,
    type: 'postgres',
    credentials: { name: 'slow', ...wh.credentials },
    tableList: setup.tableList,
    doc: setup.docs.refresh,
    name: 'orders_daily',
    incrementalMs: 7 * DAY,
  })
  ctx.log(
    `rollup refresh: ${rounds} rounds, incremental from ${since.toISOString().slice(0, 10)}, against that GROUP BY on pg`,
  )
  await wh.client.query("set time zone 'UTC'")
  const direct = async () => {
    const started = performance.now()
    const result = await wh.client.query(sql, params)
    return { ms: performance.now() - started, rows: result.rowCount }
  }
  const refresh = async () => {
    const asked = new Date()
    await api(setup.url, 'POST', '/api/v2/data-app/rollups/refresh', {
      token: setup.serviceToken,
      body: { workspaceName: 'slow', dashboardId: 'refresh', rollup: 'orders_daily' },
      status: 202,
    })
    const [state] = await untilBuilt(setup, ['refresh'], asked.toISOString(), 600_000)
    return { ms: Date.parse(state.lastRefreshAt) - asked.getTime(), rows: state.rows }
  }
  const groupBy = []
  const refreshed = []
  let windowRows = 0
  let rollupRows = 0
  for (let i = 0; i <= rounds; i++) {
    const d = await direct()
    const r = await refresh()
    if (i === 0) continue
    groupBy.push(d.ms)
    refreshed.push(r.ms)
    windowRows = d.rows
    rollupRows = r.rows
  }
  const ratio = round(median(refreshed) / median(groupBy))
  const phases = buildPhases(ctx, refreshed.length)
  ctx.log(`rollup refresh: median ms per build phase (server log) ${JSON.stringify(phases)}`)
  return {
    kind: 'refresh-time',
    status: ratio <= TARGETS.refresh ? 'pass' : 'fail',
    ratio,
    target: { ratio: TARGETS.refresh },
    tableRows: wh.bigRows,
    since: since.toISOString(),
    windowRows,
    rollupRows,
    sql,
    scenario: { medianMs: round(median(refreshed)), minMs: round(Math.min(...refreshed)), rounds: refreshed.length },
    baseline: { medianMs: round(median(groupBy)), minMs: round(Math.min(...groupBy)) },
    buildPhases: phases,
  }
}

/**
 * Where the measured builds' time went, from the server's own log: the median of each field of
 * the last `count` "rollup built" lines (`ms` the whole build, `waitedMs` from due to claimed,
 * `phases` the builder's laps).
 */
function buildPhases(ctx, count) {
  const lines = readFileSync(join(ctx.opts.tmp, 'strata-rollups.log'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('"rollup built"'))
    .slice(-count)
    .map((l) => JSON.parse(l))
  const fields = new Map()
  const add = (name, value) => typeof value === 'number' && fields.set(name, [...(fields.get(name) ?? []), value])
  for (const line of lines) {
    add('ms', line.ms)
    add('waitedMs', line.waitedMs)
    for (const [name, value] of Object.entries(line.phases ?? {})) add(name, value)
  }
  return Object.fromEntries([...fields].map(([name, values]) => [name, round(median(values))]))
}
