#!/usr/bin/env node
/**
 * node bench/own-work.mjs [--requests N] [--rounds R] [--quiet] [--dist DIR]
 *
 * Where the microseconds of a request go, in one process and without sockets, so that the
 * numbers hold on a busy machine too (CPU time of sequential requests, `process.cpuUsage`,
 * the minimum over rounds). Four tables:
 *   1. the framework: the mint's floor route (bench/bare-server.mjs), then the same route with
 *      each option our app adds to Fastify, one at a time (logger, request id, ajv options,
 *      error handler, JSON body parser, per-request hooks);
 *   2. our routes against their floors through `app.inject` (mint, cache hit, runtime query):
 *      the difference is our own work per request;
 *   3. floor routes registered inside our app, then with our pieces added one at a time (key
 *      check, sealing, the service): what each costs in the real app, with its hooks and heap;
 *   4. the services alone, called directly (no HTTP): what of that difference is the product's
 *      work (key check, sealing, tenancy, compiled SQL and result-cache keys).
 * Our app runs with the shipped defaults (LOG_LEVEL=info, the rate limiter on; its log into
 * /dev/null), or `--quiet` at warn without the limiter. `--dist DIR` measures another build of
 * the server (a copy of packages/server/dist taken before a change). Needs PostgreSQL as
 * `npm run bench` does (BENCH_POSTGRES_URL); builds nothing: run `npm run build -w @strata/server` first.
 */
import { randomUUID } from 'node:crypto'
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { RuntimeQueryBodySchema } from '@strata/contract/runtime'
import Fastify, { LogController } from 'fastify'
import pino from 'pino'
import { api } from './lib/http.mjs'
import { fullGuestTokenBody, runtimeGuestTokenBody, setupAnalytics } from './lib/setup.mjs'
import { createWarehouse } from './lib/warehouse.mjs'

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
    quiet: { type: 'boolean', default: false },
    dist: { type: 'string', default: join(import.meta.dirname, '../packages/server/dist') },
  },
})
const N = Number(args.requests)
const ROUNDS = Number(args.rounds)
// --dist: another build of the server (a copy of dist/ from before a change), for before/after
const dist = (path) => import(pathToFileURL(resolve(args.dist, path)).href)
const { buildApp } = await dist('app.js')
const { principalOf, requireDataAppKey } = await dist('auth/hooks.js')
const { parseConfig } = await dist('config.js')
const { createLogger, logDestination } = await dist('logger.js')
const { installErrorHandling } = await dist('plugins/app/error-handler.js')
const { installJsonBodyParsing } = await dist('plugins/app/json-body.js')
const { EmbedParams } = await dist('routes/embed-runtime/params.js')
const { sendResult } = await dist('routes/metric-result.js')
const { GuestTokenBody } = await dist('schemas/guest-tokens.js')
const { MetricQueryBody } = await dist('schemas/query.js')
const { AJV_OPTIONS } = await dist('validation/schema-errors.js')
// Our app as shipped (LOG_LEVEL=info, an access line per request, the rate limiter on with a
// limit never reached), its log through the server's own destination into /dev/null (a build
// without `logDestination` wrote synchronously); --quiet: at warn, no limiter (the reference).
const SERVER_ENV = args.quiet ? { LOG_LEVEL: 'warn', RATE_LIMIT: '0' } : { LOG_LEVEL: 'info', RATE_LIMIT: '1000000000' }
const serverLog = () =>
  logDestination ? logDestination('/dev/null') : pino.destination({ dest: '/dev/null', sync: true })

/**
 * CPU µs per call of each function (sequential, after a warm-up): the minimum over the rounds,
 * the functions taking turns within each round, so that a busy moment does not favour one.
 */
async function costs(fs) {
  const best = fs.map(() => Number.POSITIVE_INFINITY)
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, f] of fs.entries()) {
      for (let k = 0; k < Math.min(N, 2000); k++) await f()
      const start = process.cpuUsage()
      for (let k = 0; k < N; k++) await f()
      const used = process.cpuUsage(start)
      best[i] = Math.min(best[i], (used.user + used.system) / N)
    }
  }
  return best
}

const injected = (app, url, body, headers) => async () => {
  const res = await app.inject({ method: 'POST', url, payload: body, headers })
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
}
const us = (n) => `${n.toFixed(1)} µs`

// 1. The framework, option by option, on the mint's floor route
const mintBody = JSON.stringify(fullGuestTokenBody('emb_bench'))
const jsonHeaders = { 'content-type': 'application/json', authorization: 'Bearer sk_bench' }
const ladder = [
  ['the floor (bare Fastify, bench/bare-server.mjs)', () => ({})],
  ['+ pino logger at warn (a child per request)', (o) => ({ ...o, loggerInstance: logger(), logController: quiet() })],
  ['+ request id (x-request-id or a UUID)', (o) => ({ ...o, requestIdHeader: false, genReqId: () => randomUUID() })],
  [
    "+ our ajv options (app.ts's AJV_OPTIONS)",
    (o) => ({ ...o, ajv: { customOptions: { ...AJV_OPTIONS }, plugins: ANNOTATIONS } }),
  ],
]
const logger = () => createLogger('warn', createWriteStream('/dev/null'))
// the schemas' annotation keywords, as app.ts adds them (validation ignores them)
const ANNOTATIONS = [(ajv) => ajv.addKeyword({ keyword: 'x-examples' }).addKeyword({ keyword: 'x-unit' })]
const quiet = () => new LogController({ disableRequestLogging: true })
async function floorApp(options, { errors = false, json = false, hooks = false } = {}) {
  const app = Fastify({ logger: false, ajv: { plugins: ANNOTATIONS }, ...options })
  if (errors) installErrorHandling(app)
  if (json) installJsonBodyParsing(app)
  if (hooks) {
    // as many callback hooks as a data-app route passes (request id, rate limit, token check, log line)
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id)
      done()
    })
    app.addHook('onRequest', (_request, _reply, done) => done())
    app.addHook('onRequest', (_request, _reply, done) => {
      Promise.resolve().then(() => done(), done)
    })
    app.addHook('onResponse', (_request, _reply, done) => done())
  }
  const answer = { token: `gt_${'x'.repeat(1400)}` }
  app.post('/floor/mint', { schema: { body: GuestTokenBody } }, async () => answer)
  await app.ready()
  return app
}
const apps = []
let options = {}
for (const [label, add] of ladder) {
  options = add(options)
  apps.push([label, await floorApp(options)])
}
for (const [label, extra] of [
  ['+ our error handler', { errors: true }],
  ['+ our JSON body parser', { errors: true, json: true }],
  ['+ four callback hooks', { errors: true, json: true, hooks: true }],
]) {
  apps.push([label, await floorApp(options, extra)])
}
const ladderCosts = await costs(apps.map(([, app]) => injected(app, '/floor/mint', mintBody, jsonHeaders)))
const framework = apps.map(([label], i) => [label, ladderCosts[i]])
for (const [, app] of apps) await app.close()

// 2. and 3. Our routes and services, on the bench's data
const dir = mkdtempSync(join(tmpdir(), 'strata-own-work-'))
const wh = await createWarehouse({ smallRows: 20_000, bigRows: 1_000, dir })
const app = await buildApp(parseConfig({ ...process.env, DATA_DIR: dir, DEMO: 'false', PORT: '0', ...SERVER_ENV }), {
  logStream: serverLog(),
})
// 4. Floor routes inside our app, then with our pieces one at a time: what each costs in the
// real app (its hooks, logger and heap), which a service called alone does not show.
const inApp = {}
await app.register(async (x) => {
  x.post('/own-work/mint', { schema: { body: GuestTokenBody } }, async () => inApp.mint)
  x.post('/own-work/query', { schema: { body: MetricQueryBody } }, async () => inApp['cache hit'])
  await x.register(async (y) => {
    requireDataAppKey(y)
    const guestTokens = () => app.services.guestTokens
    y.post('/own-work/mint/key', { schema: { body: GuestTokenBody } }, async () => inApp.mint)
    y.post('/own-work/mint/seal', { schema: { body: GuestTokenBody } }, async (request) => {
      app.services.keyring.sealToken(JSON.stringify(request.body))
      return inApp.mint
    })
    y.post('/own-work/mint/service', { schema: { body: GuestTokenBody } }, async (request) => {
      await guestTokens().mint(principalOf(request, 'dataApp'), request.body)
      return inApp.mint
    })
    y.post('/own-work/query/key', { schema: { body: MetricQueryBody } }, async () => inApp['cache hit'])
    y.post('/own-work/query/service', { schema: { body: MetricQueryBody } }, async (request, reply) => {
      const { embeds, dashboards, metricQueries } = app.services
      const { embedId, metricId, clientId } = request.body
      const embed = await embeds.get(embedId)
      const dashboard = await dashboards.get(embed.dashboardRowId)
      const filters = { userFiltersTrusted: true }
      return sendResult(reply, await metricQueries.run({ embed, dashboard, metricId, clientId, rls: null, filters }))
    })
  })
})
try {
  await app.ready()
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const setup = await setupAnalytics(address, wh, {})
  const embedId = setup.embeds.pg
  const { token } = await api(address, 'POST', '/api/v2/guest-token/create', {
    token: setup.dataAppKey,
    body: runtimeGuestTokenBody(embedId),
  })
  const keyHeaders = { 'content-type': 'application/json', authorization: `Bearer ${setup.dataAppKey}` }
  const tokenHeaders = { 'content-type': 'application/json', authorization: `Bearer ${token}` }
  const queryBody = { embedId, metricId: 'by_region', clientId: 't1' }
  const routes = [
    ['mint', '/api/v2/guest-token/create', '/floor/mint', fullGuestTokenBody(embedId), keyHeaders],
    ['cache hit', '/api/v2/data-app/query', '/floor/query', queryBody, keyHeaders],
    [
      'runtime query',
      `/api/v2/embed/runtime/${embedId}/query`,
      `/floor/runtime/${embedId}`,
      { metricId: 'by_region' },
      tokenHeaders,
    ],
  ]
  // the floors of bench/bare-server.mjs, answering what our route answered
  const floor = Fastify({ logger: false, ajv: { plugins: ANNOTATIONS } })
  const answers = {}
  floor.post('/floor/mint', { schema: { body: GuestTokenBody } }, async () => answers.mint)
  floor.post('/floor/query', { schema: { body: MetricQueryBody } }, async () => answers['cache hit'])
  floor.post(
    '/floor/runtime/:embedId',
    { schema: { params: EmbedParams, body: RuntimeQueryBodySchema } },
    async () => answers['runtime query'],
  )
  await floor.ready()
  const ours = []
  for (const [name, url, floorUrl, body, headers] of routes) {
    const payload = JSON.stringify(body)
    answers[name] = (await app.inject({ method: 'POST', url, payload, headers })).json()
    const [f, o] = await costs([injected(floor, floorUrl, payload, headers), injected(app, url, payload, headers)])
    ours.push([name, f, o])
  }
  await floor.close()

  const ladders = [
    [
      'mint',
      fullGuestTokenBody(embedId),
      [
        ['the floor route inside our app', '/own-work/mint'],
        ['+ the data app key check', '/own-work/mint/key'],
        ['+ sealing the body (JSON, AES-256-GCM), nothing else', '/own-work/mint/seal'],
        ['+ the mint service instead (the answer stays constant)', '/own-work/mint/service'],
        ['our route', '/api/v2/guest-token/create'],
      ],
    ],
    [
      'cache hit',
      queryBody,
      [
        ['the floor route inside our app', '/own-work/query'],
        ['+ the data app key check', '/own-work/query/key'],
        ['+ embed, dashboard, metric query, result text', '/own-work/query/service'],
        ['our route', '/api/v2/data-app/query'],
      ],
    ],
  ]
  const inAppRows = []
  for (const [name, body, steps] of ladders) {
    inApp[name] = answers[name]
    const payload = JSON.stringify(body)
    const c = await costs(steps.map(([, url]) => injected(app, url, payload, keyHeaders)))
    for (const [i, [label]] of steps.entries())
      inAppRows.push([name, label, c[i], i === 0 ? undefined : c[i] - c[i - 1]])
  }

  const s = app.services
  const principal = await s.dataApps.verifyKey(setup.dataAppKey)
  const claims = await s.guestTokens.verify(token)
  const embed = await s.embeds.get(embedId)
  const dashboard = await s.dashboards.get(embed.dashboardRowId)
  const body = fullGuestTokenBody(embedId)
  const services = [
    ['data app key check (from memory)', () => s.dataApps.verifyKey(setup.dataAppKey)],
    ['guest token check (sealed, from memory)', () => s.guestTokens.verify(token)],
    ['mint: claims, JSON and AES-256-GCM seal', () => s.guestTokens.mint(principal, body)],
    [
      'metric query from the result cache (secret key)',
      () =>
        s.metricQueries.run({
          embed,
          dashboard,
          metricId: 'by_region',
          clientId: 't1',
          rls: null,
          filters: { userFiltersTrusted: true },
          hints: {},
        }),
    ],
    [
      'runtime query from the result cache (guest token)',
      () => s.runtime.query(claims, embedId, { metricId: 'by_region' }),
    ],
  ]
  const serviceCosts = (await costs(services.map(([, f]) => f))).map((v, i) => [services[i][0], v])

  console.log(
    `\nCPU per request, sequential, minimum of ${ROUNDS} rounds of ${N} (in process, no sockets); our app with ${JSON.stringify(SERVER_ENV)}, built in ${args.dist}\n`,
  )
  console.log('| the mint floor route, with what our app adds to Fastify | µs | step |\n| --- | --- | --- |')
  framework.forEach(([label, v], i) => {
    console.log(
      `| ${label} | ${us(v)} | ${i === 0 ? '' : `${v - framework[i - 1][1] >= 0 ? '+' : ''}${us(v - framework[i - 1][1])}`} |`,
    )
  })
  console.log('\n| route | its floor | ours | our own work |\n| --- | --- | --- | --- |')
  for (const [name, f, o] of ours) console.log(`| ${name} | ${us(f)} | ${us(o)} | ${us(o - f)} |`)
  console.log('\n| inside our app | step | µs | change |\n| --- | --- | --- | --- |')
  for (const [name, label, v, d] of inAppRows) {
    console.log(`| ${name} | ${label} | ${us(v)} | ${d === undefined ? '' : `${d >= 0 ? '+' : ''}${us(d)}`} |`)
  }
  console.log('\n| service call (no HTTP) | µs |\n| --- | --- |')
  for (const [label, v] of serviceCosts) console.log(`| ${label} | ${us(v)} |`)
} finally {
  await app.close()
  await wh.drop()
  rmSync(dir, { recursive: true, force: true })
}
process.exit(0)
