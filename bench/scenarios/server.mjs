import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import pg from 'pg'
import { compiledSql } from '../lib/compiled.mjs'
import { api, timed } from '../lib/http.mjs'
import { comparePair, compareTimes } from '../lib/load.mjs'
import { startProcess } from '../lib/proc.mjs'
import { profileIn, topSelfTime } from '../lib/profile.mjs'
import { serverEnv } from '../lib/server-env.mjs'
import { byRegion, fullGuestTokenBody, runtimeGuestTokenBody, setupAnalytics } from '../lib/setup.mjs'
import { median, round } from '../lib/stats.mjs'
import { PG_URL, TENANT_COUNT } from '../lib/warehouse.mjs'
import { selfServeLoad } from './self-serve.mjs'

export const SERVER_SCENARIOS = {
  'guest-token-mint': 'Guest-token mint (valid key, full params), against its floor',
  'post-floor': "Reference: the mint's floor (bare Fastify POST of the mint body, schema-validated) against a bare GET",
  'query-cache-miss': 'Metric query, cache miss (PostgreSQL aggregation, a distinct tenant per request)',
  'query-cache-hit': 'Metric query, cache hit, against its floor',
  'runtime-query': 'Runtime query with a guest token, against its floor',
  'get-reference': 'Reference: the first targets, each scenario against a bare GET /json (same rounds)',
  'groupby-1m-duckdb': '1M-row GROUP BY metric, DuckDB (Parquet via csv datasource)',
  'groupby-1m-postgres': '1M-row GROUP BY metric, PostgreSQL',
  'many-tenants': 'Many tenants: RSS per 1,000 active tenants (token, runtime load, query each)',
  'self-serve-load':
    'Self-serve overlays: runtime load of a tenant with 3 metrics, a layout, 2 views (10,000 such tenants stored)',
}

/** The targets of bench/README.md, as ratios to each scenario's baseline in the same run. */
const TARGETS = { 'guest-token-mint': 0.8, 'query-cache-miss': 0.8, 'query-cache-hit': 0.8, 'runtime-query': 0.7 }
/** The scenarios whose floor run alternates with a bare GET /json too (the get-reference row). */
const FLOORED = ['guest-token-mint', 'query-cache-hit', 'runtime-query']

/**
 * `node dist/main.js` as in production, with its own temp DATA_DIR; --cpu-prof when profiling.
 * Its stdout, the log, goes to a file in the run's temp dir (as a process manager would write it).
 */
export async function startStrata(ctx, label, env) {
  const dataDir = mkdtempSync(join(ctx.opts.tmp, `${label}-`))
  const nodeArgs = ctx.opts.profile
    ? ['--cpu-prof', `--cpu-prof-dir=${ctx.opts.profileDir}`, `--cpu-prof-name=${label}.cpuprofile`]
    : []
  const server = await startProcess({
    script: ctx.mainJs,
    nodeArgs,
    stdoutFile: join(ctx.opts.tmp, `${label}.log`),
    env: {
      ...serverEnv(ctx.opts),
      DATA_DIR: dataDir,
      ...(ctx.wh ? { FILES_ROOT: ctx.wh.filesRoot } : {}),
      DEMO: 'false',
      ...env,
    },
  })
  return {
    ...server,
    dataDir,
    async stop() {
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
      if (ctx.opts.profile) {
        const file = profileIn(ctx.opts.profileDir, label)
        if (file) ctx.profiles[label] = { file, ...topSelfTime(file, { root: ctx.root, top: 25 }) }
      }
    },
  }
}

const wanted = (ctx, ids) => ids.some((id) => ctx.wants(id))

/**
 * A floor (bench/README.md): the bare server's route for this request shape answers what our route
 * answered once, so that both sides serialise and send an answer of the same size.
 */
async function setFloorAnswer(bare, shape, answer) {
  await api(bare.url, 'PUT', `/floor/answer/${shape}`, { body: answer })
}

/**
 * The scenario against its floor, with the bare GET /json as a third load in every round (the
 * first targets' baseline, kept for the get-reference row).
 */
async function againstFloor(ctx, id, { floor, scenario, bareJson }) {
  return comparePair({
    id,
    baseline: floor,
    scenario,
    reference: bareJson,
    target: TARGETS[id],
    opts: ctx.opts,
    log: ctx.log,
  })
}

/**
 * The scenarios that need a running Strata: throughput pairs (wrk) and the 1M-row query times.
 * Server "nocache" runs with RESULT_CACHE_TTL_MS=0, server "cache" with the default TTL.
 */
export async function serverScenarios(ctx, record) {
  const { opts, log, wh } = ctx
  const sqlSmall = await compiledSql({
    root: ctx.root,
    type: 'postgres',
    credentials: { name: 'warehouse', ...wh.credentials },
    tableList: [{ schemaName: wh.schema, name: 'sales_small', clientColumn: 'tenant' }],
    metric: byRegion('by_region', `${wh.schema}.sales_small`),
    clientId: 't1',
  })
  const bare = await startProcess({
    script: join(ctx.root, 'bench/bare-server.mjs'),
    env: { BENCH_PG_URL: PG_URL, BENCH_SQL: JSON.stringify({ ...sqlSmall, clientId: 't1' }), POOL_MAX: '10' },
  })
  const bareJson = { url: `${bare.url}/json`, pid: bare.pid }
  // the floored scenarios' results, for the get-reference row
  const floored = {}
  const wantsFloored = (id) => ctx.wants(id) || ctx.wants('get-reference')
  try {
    if (
      wanted(ctx, ['guest-token-mint', 'post-floor', 'get-reference', 'query-cache-miss']) ||
      wanted(ctx, ['groupby-1m-duckdb', 'groupby-1m-postgres'])
    ) {
      const server = await startStrata(ctx, 'strata-nocache', { RESULT_CACHE_TTL_MS: '0' })
      try {
        const setup = await setupAnalytics(server.url, wh, { lake: true })
        const key = { authorization: `Bearer ${setup.dataAppKey}` }
        if (wantsFloored('guest-token-mint') || ctx.wants('post-floor')) {
          log('guest-token mint, against its floor (and a bare GET)')
          const body = fullGuestTokenBody(setup.embeds.pg)
          const path = '/api/v2/guest-token/create'
          await setFloorAnswer(bare, 'mint', await api(server.url, 'POST', path, { token: setup.dataAppKey, body }))
          const result = await againstFloor(ctx, 'guest-token-mint', {
            floor: { url: `${bare.url}/floor/mint`, method: 'POST', body, headers: key, pid: bare.pid },
            scenario: { url: `${server.url}${path}`, method: 'POST', body, headers: key, pid: server.pid },
            bareJson,
          })
          floored['guest-token-mint'] = result
          if (ctx.wants('guest-token-mint')) record('guest-token-mint', result)
          // Not a target: how far below the GET the framework alone puts a POST of this body.
          if (ctx.wants('post-floor')) record('post-floor', floorAgainstGet(result))
        }
        if (ctx.wants('query-cache-miss')) {
          log('metric query, cache miss')
          // A different tenant per request (1,000 in turn), so that no two concurrent requests are
          // the same query: the server's single-flight would otherwise answer many with one.
          const body = { embedId: setup.embeds.pg, metricId: 'by_region', clientId: 't__N__' }
          const rotate = { placeholder: '__N__', count: TENANT_COUNT }
          record(
            'query-cache-miss',
            await comparePair({
              id: 'query-cache-miss',
              baseline: { url: `${bare.url}/query`, method: 'POST', body, rotate, pid: bare.pid },
              scenario: {
                url: `${server.url}/api/v2/data-app/query`,
                method: 'POST',
                body,
                rotate,
                headers: key,
                pid: server.pid,
              },
              target: TARGETS['query-cache-miss'],
              opts,
              log,
            }),
          )
        }
        for (const engine of ['postgres', 'duckdb']) {
          const id = `groupby-1m-${engine}`
          if (!ctx.wants(id)) continue
          log(`1M-row GROUP BY on ${engine}`)
          record(id, await groupBy1m(ctx, server, setup, engine))
        }
      } finally {
        await server.stop()
      }
    }

    if (wanted(ctx, ['query-cache-hit', 'runtime-query', 'get-reference', 'many-tenants', 'self-serve-load'])) {
      const server = await startStrata(ctx, 'strata-cache', {})
      try {
        const setup = await setupAnalytics(server.url, wh)
        const key = { authorization: `Bearer ${setup.dataAppKey}` }
        if (wantsFloored('query-cache-hit')) {
          log('metric query, cache hit, against its floor (and a bare GET)')
          const body = { embedId: setup.embeds.pg, metricId: 'by_region', clientId: 't1' }
          const path = '/api/v2/data-app/query'
          await setFloorAnswer(bare, 'query', await api(server.url, 'POST', path, { token: setup.dataAppKey, body }))
          const result = await againstFloor(ctx, 'query-cache-hit', {
            floor: { url: `${bare.url}/floor/query`, method: 'POST', body, headers: key, pid: bare.pid },
            scenario: { url: `${server.url}${path}`, method: 'POST', body, headers: key, pid: server.pid },
            bareJson,
          })
          floored['query-cache-hit'] = result
          if (ctx.wants('query-cache-hit')) record('query-cache-hit', result)
        }
        if (wantsFloored('runtime-query')) {
          log('runtime query with a guest token, against its floor (and a bare GET)')
          const { token } = await api(server.url, 'POST', '/api/v2/guest-token/create', {
            token: setup.dataAppKey,
            body: runtimeGuestTokenBody(setup.embeds.pg),
          })
          const body = { metricId: 'by_region' }
          const path = `/api/v2/embed/runtime/${setup.embeds.pg}/query`
          const headers = { authorization: `Bearer ${token}` }
          await setFloorAnswer(bare, 'runtime', await api(server.url, 'POST', path, { token, body }))
          const result = await againstFloor(ctx, 'runtime-query', {
            floor: {
              url: `${bare.url}/floor/runtime/${setup.embeds.pg}`,
              method: 'POST',
              body,
              headers,
              pid: bare.pid,
            },
            scenario: { url: `${server.url}${path}`, method: 'POST', body, headers, pid: server.pid },
            bareJson,
          })
          floored['runtime-query'] = result
          if (ctx.wants('runtime-query')) record('runtime-query', result)
        }
        if (ctx.wants('many-tenants')) {
          log('many tenants')
          record('many-tenants', await manyTenants(ctx, server, setup))
        }
        if (ctx.wants('self-serve-load')) {
          log('self-serve load: a tenant with its own metrics, layout and views')
          record('self-serve-load', await selfServeLoad(ctx, server, setup))
        }
      } finally {
        await server.stop()
      }
    }
    if (ctx.wants('get-reference')) record('get-reference', getReference(floored))
  } finally {
    await bare.stop()
  }
}

/** The post-floor row from the mint's rounds: its floor against the bare GET, round by round. */
function floorAgainstGet(mint) {
  const errors = mint.baseline.errors + (mint.reference?.errors ?? 0)
  return {
    kind: 'throughput',
    status: errors > 0 ? 'error' : 'reference',
    ...(errors > 0 ? { note: `${errors} failed requests (non-2xx or socket errors): numbers not comparable` } : {}),
    ratio: mint.reference.baselineRatio,
    scenario: mint.baseline,
    baseline: mint.reference,
  }
}

/**
 * The first targets' ratios (each scenario against the bare GET /json, alternating in the same
 * rounds as its floor), with the floor's own ratio to that GET: no target, a bridge to the
 * earlier tables.
 */
function getReference(floored) {
  const ratios = {}
  let errors = 0
  for (const id of FLOORED) {
    const r = floored[id]
    if (!r?.reference) continue
    errors += r.reference.errors
    ratios[id] = {
      scenarioRatio: r.reference.scenarioRatio,
      floorRatio: r.reference.baselineRatio,
      getRps: r.reference.rps,
      getCpuUsPerRequest: r.reference.cpuUsPerRequest,
    }
  }
  return {
    kind: 'ratios',
    status: errors > 0 ? 'error' : 'reference',
    ...(errors > 0 ? { note: `${errors} failed requests on the bare GET` } : {}),
    ratios,
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 2_000))

/**
 * bench/README.md, `many-tenants`: what 1,000 more active tenants cost in RSS (pools, caches, token
 * state). Each tenant mints a guest token, loads the runtime and runs a query (its own compiled
 * SQL and cached result); RSS after 2 s of quiet, before and after each block of 1,000 (after a
 * first block that warms the caches' code paths). clientIds beyond the warehouse's tenants have
 * no rows but are as many distinct tenants to the server.
 */
async function manyTenants(ctx, server, setup) {
  const block = ctx.opts.smoke ? 50 : 1_000
  const blocks = ctx.opts.smoke ? 2 : 3
  const embedId = setup.embeds.pg
  const activate = async (tenant) => {
    const { token } = await api(server.url, 'POST', '/api/v2/guest-token/create', {
      token: setup.dataAppKey,
      body: runtimeGuestTokenBody(embedId, tenant),
    })
    await api(server.url, 'GET', `/api/v2/embed/runtime/${embedId}`, { token })
    await api(server.url, 'POST', `/api/v2/embed/runtime/${embedId}/query`, { token, body: { metricId: 'by_region' } })
  }
  const rss = [server.rss()]
  for (let b = 0; b < blocks; b++) {
    const tenants = Array.from({ length: block }, (_, i) => `t${b * block + i}`)
    for (let i = 0; i < tenants.length; i += 10) await Promise.all(tenants.slice(i, i + 10).map(activate))
    await settle()
    rss.push(server.rss())
  }
  const perBlockMB = rss.slice(2).map((r, i) => round((r - (rss[i + 1] ?? r)) / 2 ** 20 / (block / 1000), 1))
  const worst = Math.max(...perBlockMB)
  return {
    kind: 'memory',
    status: worst <= 20 ? 'pass' : 'fail',
    target: { mbPer1000: 20 },
    scenario: { tenants: block * blocks, rssMB: rss.map((r) => round(r / 2 ** 20, 0)), perBlockMB },
  }
}

/**
 * One query at a time: the server's metric query (cache off, no tenancy) against the same
 * compiled SQL on the driver in this process, alternating.
 */
async function groupBy1m(ctx, server, setup, engine) {
  const { wh, opts } = ctx
  const mart = setup.marts.find((m) => m.name === (engine === 'duckdb' ? 'duckmart' : 'pg1m'))
  const from = engine === 'duckdb' ? 'main.sales_1m' : `${wh.schema}.sales_1m`
  const { sql, params } = await compiledSql({
    root: ctx.root,
    type: engine === 'duckdb' ? 'csv' : 'postgres',
    credentials: engine === 'duckdb' ? { name: 'lake', path: 'lake' } : { name: 'warehouse', ...wh.credentials },
    filesRoot: wh.filesRoot,
    tableList: mart.tableList,
    metric: byRegion('by_region_1m', from),
    clientId: 'None',
  })
  const body = { embedId: setup.embeds[mart.workspace], metricId: 'by_region_1m', clientId: 'None' }
  const viaServer = () => timed(server.url, 'POST', '/api/v2/data-app/query', { token: setup.dataAppKey, body })
  let driver
  let close
  if (engine === 'postgres') {
    const client = new pg.Client({ connectionString: PG_URL })
    await client.connect()
    driver = async () => {
      const started = performance.now()
      await client.query(sql, params)
      return performance.now() - started
    }
    close = () => client.end()
  } else {
    const instance = await DuckDBInstance.create(':memory:')
    const conn = await instance.connect()
    await conn.run(`create view main.sales_1m as select * from read_parquet('${wh.parquet.replace(/'/g, "''")}')`)
    driver = async () => {
      const started = performance.now()
      await conn.runAndReadAll(sql, params)
      return performance.now() - started
    }
    close = async () => {
      conn.closeSync()
      instance.closeSync()
    }
  }
  try {
    const result = await compareTimes({
      server: viaServer,
      driver,
      reps: opts.smoke ? 3 : 21,
      warmup: opts.smoke ? 1 : 3,
      target: 0.9,
    })
    // what one request costs with no work behind it, on the same client and connection
    const floor = []
    for (let i = 0; i < (opts.smoke ? 3 : 21); i++) floor.push((await timed(server.url, 'GET', '/health/live')).ms)
    return { ...result, sql, healthLiveMedianMs: round(median(floor)) }
  } finally {
    await close()
  }
}
