import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { PG_URL } from './warehouse.mjs'

/** The rollup scenarios' tenants: `t0` … `t99`. */
export const SLOW_TENANTS = 100
export const REGIONS = ['north', 'south', 'east', 'west', 'central']
export const CHANNELS = ['web', 'store', 'phone']
/** How far back the generated orders go from the moment they are generated (default). */
export const SPAN_DAYS = 400
/** What each query through the slow view waits, in seconds. */
export const SLEEP_SECONDS = 0.5
const CHANNEL = 'bench_slow'

/**
 * A slow warehouse in the local PostgreSQL, in a database of its own (`bench_slow_<hex>`,
 * dropped by `drop()`): `sales.orders` (tenant, region, channel, status, quantity, amount,
 * created_at; `rows` orders spread over the last `spanDays` days), and one view of it per name in
 * `views` (`sales.<name>`, the same definition each: dashboards on different views share no
 * cached result in Strata), whose every query first waits SLEEP_SECONDS in `sales.bench_slow()`. The wait sits in an
 * uncorrelated scalar subquery (an InitPlan: once per query, not per row; `checkSleep` proves
 * it) and the function announces each call with `pg_notify`, which a read-only transaction
 * allows: `counter()` counts the queries that reached the warehouse on the warehouse's side,
 * whatever Strata says about them. With `bigRows` (≠ rows) the refresh row reads a table of its
 * own, `sales.orders_big`, of that size.
 */
export async function createSlowWarehouse({ rows, bigRows = rows, views, spanDays = SPAN_DAYS, log }) {
  const database = `bench_slow_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: PG_URL })
  await admin.connect()
  await admin.query(`create database ${database}`)
  await admin.end()
  const url = new URL(PG_URL)
  url.pathname = `/${database}`
  const client = new pg.Client({ connectionString: url.href })
  await client.connect()
  const drop = async () => {
    await client.end().catch(() => {})
    const again = new pg.Client({ connectionString: PG_URL })
    await again.connect()
    try {
      await again.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [database])
      await again.query(`drop database if exists ${database}`)
    } finally {
      await again.end()
    }
  }
  // the newest order is one step before this instant; every date preset has rows
  const anchor = new Date(Math.floor(Date.now() / 1000) * 1000)
  try {
    await client.query('create schema sales')
    const tables =
      bigRows === rows
        ? [['orders', rows]]
        : [
            ['orders', rows],
            ['orders_big', bigRows],
          ]
    for (const [table, n] of tables) {
      const started = performance.now()
      await client.query(
        `create table sales.${table} as
         select i as id,
           't' || (i % ${SLOW_TENANTS}) as tenant,
           (array[${REGIONS.map((r) => `'${r}'`).join(', ')}])[((i / 7) % ${REGIONS.length}) + 1] as region,
           (array[${CHANNELS.map((c) => `'${c}'`).join(', ')}])[((i / 3) % ${CHANNELS.length}) + 1] as channel,
           case when i % 11 = 0 then 'refunded' else 'paid' end as status,
           (1 + i % 4)::int as quantity,
           cast(((i * 37) % 1000) * 1.25 + 1 as numeric(10,2)) as amount,
           $1::timestamptz - interval '1 second' * (i * ${(spanDays * 86_400) / n}) as created_at
         from generate_series(1, ${n}) i`,
        [anchor.toISOString()],
      )
      await client.query(`create index on sales.${table} (tenant, created_at)`)
      await client.query(`create index on sales.${table} (created_at)`)
      await client.query(`vacuum analyze sales.${table}`)
      log?.(
        `sales.${table}: ${n.toLocaleString('en-US')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      )
    }
    await client.query(`
      create function sales.bench_slow() returns boolean language plpgsql volatile as $$
      begin
        perform pg_sleep(${SLEEP_SECONDS});
        perform pg_notify('${CHANNEL}', pg_backend_pid()::text || ' ' || clock_timestamp()::text);
        return true;
      end $$`)
    for (const view of views) {
      await client.query(`create view sales.${view} as select * from sales.orders where (select sales.bench_slow())`)
    }
  } catch (err) {
    await drop().catch(() => {})
    throw err
  }
  return {
    database,
    schema: 'sales',
    rows,
    bigRows,
    spanDays,
    bigTable: bigRows === rows ? 'orders' : 'orders_big',
    anchor,
    credentials: {
      host: url.hostname,
      port: Number(url.port || 5432),
      username: decodeURIComponent(url.username || 'postgres'),
      password: decodeURIComponent(url.password || 'x'),
      database,
      schema: 'sales',
    },
    /** A client of this database (the bench's own queries: the baseline GROUP BY). */
    client,
    /** Counts the queries that reach the slow view from now on: `n` so far, `close()`. */
    async counter() {
      const listener = new pg.Client({ connectionString: url.href })
      await listener.connect()
      const c = { n: 0, close: () => listener.end() }
      listener.on('notification', (m) => {
        if (m.channel === CHANNEL) c.n++
      })
      await listener.query(`listen ${CHANNEL}`)
      return c
    },
    /**
     * Proof that the view costs SLEEP_SECONDS per query, not per row: a query reading many
     * rows of it takes about that long and is counted once.
     */
    async checkSleep() {
      const c = await this.counter()
      const started = performance.now()
      const { rows: r } = await client.query(`select count(*)::int as n from sales.${views[0]}`)
      const ms = performance.now() - started
      await new Promise((resolve) => setTimeout(resolve, 200))
      await c.close()
      if (c.n !== 1 || ms < SLEEP_SECONDS * 1000 || ms > SLEEP_SECONDS * 1000 + 5_000) {
        throw new Error(`the slow view is not one ${SLEEP_SECONDS} s wait per query: ${c.n} waits, ${ms.toFixed(0)} ms`)
      }
      return { ms, rowsRead: r[0].n, waits: c.n }
    },
    drop,
  }
}
