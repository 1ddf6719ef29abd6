/**
 * The baselines' server: a bare Fastify app on the same Node, no plugins, no hooks.
 *   GET  /json   a small JSON object
 *   POST /mint-shape  validates the body against the server's own guest-token schema (from dist/),
 *                answers a constant token: what any POST of the mint's size costs in Fastify
 *   POST /query  runs BENCH_SQL ({ sql, params, clientId }, the server's compiled statement) through a pg
 *                pool of POOL_MAX connections and answers its rows
 * Started by bench/run.mjs with PORT, BENCH_PG_URL, BENCH_SQL, POOL_MAX.
 */
import Fastify from 'fastify'
import pg from 'pg'
import { GuestTokenBody } from '../packages/server/dist/schemas/guest-tokens.js'

const app = Fastify({ logger: false })
const statement = process.env.BENCH_SQL ? JSON.parse(process.env.BENCH_SQL) : undefined
const pool = statement
  ? new pg.Pool({ connectionString: process.env.BENCH_PG_URL, max: Number(process.env.POOL_MAX ?? 10) })
  : undefined

app.get('/health/ready', async () => ({ status: 'ok' }))
app.get('/json', async () => ({ hello: 'world', ok: true, n: 42 }))
app.post('/mint-shape', { schema: { body: GuestTokenBody } }, async () => ({ token: 'gt_reference' }))
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
