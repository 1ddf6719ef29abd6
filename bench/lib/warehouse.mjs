import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import pg from 'pg'

export const PG_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** The tenants of the generated rows: `t0` … `t999` (a tenant column, indexed, as in a real warehouse). */
export const TENANT_COUNT = 1000
const REGIONS = ['north', 'south', 'east', 'west', 'central']

/**
 * One deterministic sales row per i, the same in PostgreSQL (generate_series) and DuckDB
 * (range): tenant, region, product, amount, created_at.
 */
const columns = (i) => `
  ${i} as id,
  't' || (${i} % ${TENANT_COUNT}) as tenant,
  (${arrayLiteral(REGIONS)})[(${i} % ${REGIONS.length}) + 1] as region,
  'p' || (${i} % 20) as product,
  cast((${i} % 1000) * 1.25 + 1 as decimal(10,2)) as amount`
const arrayLiteral = (values) => `array[${values.map((v) => `'${v}'`).join(', ')}]`

/**
 * A bench schema in the local PostgreSQL: sales_small (throughput scenarios) and sales_1m (the
 * GROUP BY scenario); and a directory with the same big table as Parquet for DuckDB.
 */
export async function createWarehouse({ smallRows, bigRows, dir }) {
  const schema = `bench_${randomBytes(4).toString('hex')}`
  const client = new pg.Client({ connectionString: PG_URL })
  await client.connect()
  try {
    await client.query(`create schema ${schema}`)
    for (const [table, rows] of [
      ['sales_small', smallRows],
      ['sales_1m', bigRows],
    ]) {
      await client.query(`
        create table ${schema}.${table} as
          select ${columns('i')}, timestamptz '2025-01-01 00:00:00+00' + i * interval '30 seconds' as created_at
          from generate_series(1, ${rows}) i`)
      await client.query(`alter table ${schema}.${table} add primary key (id)`)
      await client.query(`create index on ${schema}.${table} (tenant)`)
      await client.query(`vacuum analyze ${schema}.${table}`)
    }
  } catch (err) {
    await client.query(`drop schema if exists ${schema} cascade`).catch(() => {})
    await client.end()
    throw err
  }
  const filesRoot = join(dir, 'files')
  const lakeDir = join(filesRoot, 'lake')
  mkdirSync(lakeDir, { recursive: true })
  const parquet = join(lakeDir, 'sales_1m.parquet')
  const duck = await DuckDBInstance.create(':memory:')
  const conn = await duck.connect()
  await conn.run(`
    copy (select ${columns('i')}, timestamp '2025-01-01 00:00:00' + to_seconds(i * 30) as created_at
          from range(1, ${bigRows + 1}) t(i))
    to '${parquet.replace(/'/g, "''")}' (format parquet)`)
  conn.closeSync()
  duck.closeSync()
  const url = new URL(PG_URL)
  return {
    schema,
    /** FILES_ROOT for the server: the lake is its folder `lake`. */
    filesRoot,
    lakeDir,
    parquet,
    credentials: {
      host: url.hostname,
      port: Number(url.port || 5432),
      username: decodeURIComponent(url.username || 'postgres'),
      password: decodeURIComponent(url.password || 'x'),
      database: url.pathname.slice(1) || 'test',
      schema,
    },
    async drop() {
      await client.query(`drop schema if exists ${schema} cascade`)
      await client.end()
    },
  }
}
