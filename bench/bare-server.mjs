/**
 * The baselines' server: a bare Fastify app (the root node_modules' Fastify, the same the server
 * runs) on the same Node, no plugins, no hooks.
 *   GET  /json                    a small JSON object (the first targets' baseline, now a reference)
 *   POST /floor/mint              } the floors (bench/README.md): each parses and validates the same
 *   POST /floor/query             } JSON body against the server's own built schema for that route
 *   POST /floor/runtime/:embedId  } (and params), and answers a constant: what Fastify alone costs
 *                                   for that request. The constant is the answer our route gave
 *                                   (set once by the bench through PUT /floor/answer/:shape, so it
 *                                   has the same size and shape), parsed once and serialised per
 *                                   request by Fastify's default serialiser.
 *   POST /query  runs BENCH_SQL ({ sql, params, clientId }, the server's compiled statement) through a pg
 *                pool of POOL_MAX connections and answers its rows
 * Started by bench/run.mjs with PORT, BENCH_PG_URL, BENCH_SQL, POOL_MAX.
 */
import { RuntimeQueryBodySchema } from '@strata/contract/runtime'
import Fastify from 'fastify'
import pg from 'pg'
import { EmbedParams } from '../packages/server/dist/routes/embed-runtime/params.js'
import { GuestTokenBody } from '../packages/server/dist/schemas/guest-tokens.js'
import { MetricQueryBody } from '../packages/server/dist/schemas/query.js'

// the schemas carry annotations (named examples, a number's unit) that validation ignores: ajv in
// strict mode must know them, as the server's own does
const annotations = (ajv) => ajv.addKeyword({ keyword: 'x-examples' }).addKeyword({ keyword: 'x-unit' })
const app = Fastify({ logger: false, ajv: { plugins: [annotations] } })
const statement = process.env.BENCH_SQL ? JSON.parse(process.env.BENCH_SQL) : undefined
const pool = statement
  ? new pg.Pool({ connectionString: process.env.BENCH_PG_URL, max: Number(process.env.POOL_MAX ?? 10) })
  : undefined

// Until the bench sets them: constants of the usual size (a sealed token; a 5-row GROUP BY result).
const rows = ['north', 'south', 'east', 'west', 'central'].map((region, i) => ({
  region,
  revenue: 12_345.67 * (i + 1),
  orders: 321 * (i + 1),
}))
const answers = {
  mint: { token: `gt_${'x'.repeat(400)}` },
  query: {
    data: rows,
    error: null,
    timeTaken: 1.2,
    options: { chart: { type: 'bar', x: 'region', y: ['revenue'] }, name: 'Revenue by region' },
  },
  runtime: {
    data: rows,
    error: null,
    timeTaken: 1.2,
    options: { chart: { type: 'bar', x: 'region', y: ['revenue'] }, name: 'Revenue by region' },
  },
}

app.get('/health/ready', async () => ({ status: 'ok' }))
app.get('/json', async () => ({ hello: 'world', ok: true, n: 42 }))
app.post('/floor/mint', { schema: { body: GuestTokenBody } }, async () => answers.mint)
app.post('/floor/query', { schema: { body: MetricQueryBody } }, async () => answers.query)
app.post(
  '/floor/runtime/:embedId',
  { schema: { params: EmbedParams, body: RuntimeQueryBodySchema } },
  async () => answers.runtime,
)
app.put('/floor/answer/:shape', async (request, reply) => {
  const { shape } = request.params
  if (!(shape in answers)) return reply.status(404).send({ error: `unknown shape ${shape}` })
  answers[shape] = request.body
  return { ok: true }
})
// The statement's tenant parameter (BENCH_SQL's clientId) takes the request's clientId, as the
// server's compiled statement does.
app.post('/query', async (request) => {
  if (!pool || !statement) throw new Error('BENCH_SQL is not set')
  const clientId = request.body?.clientId
  const params = statement.params.map((p) => (p === statement.clientId && clientId ? clientId : p))
  const result = await pool.query(statement.sql, params)
  return { data: result.rows, error: null }
})

const close = () => {
  void app
    .close()
    .then(() => pool?.end())
    .finally(() => process.exit(0))
}
process.on('SIGTERM', close)
process.on('SIGINT', close)

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' })
