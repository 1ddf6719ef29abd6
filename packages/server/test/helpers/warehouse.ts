import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { POSTGRES_URL } from './services.js'

/** A small multi-tenant sales schema on the local PostgreSQL, dropped by `drop`. */
export interface PgWarehouse {
  readonly schema: string
  /** Credentials of a `postgres` datasource reaching it (name left to the caller). */
  readonly credentials: {
    host: string
    port: number
    username: string
    password: string
    database: string
    schema: string
  }
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
  drop(): Promise<void>
}

export const TENANTS = ['acme', 'globex', 'initech'] as const

/**
 * customers(id, name, country, tenant) and orders(id, customer_id, tenant, status, amount,
 * created_at): 3 tenants, deterministic values, so expected figures can be computed in SQL.
 */
export async function createPgWarehouse(): Promise<PgWarehouse> {
  const schema = `wh_${randomBytes(5).toString('hex')}`
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  await client.connect()
  await client.query(`create schema ${schema}`)
  await client.query(`set search_path = ${schema}`)
  await client.query(`
    create table customers (id integer primary key, name text not null, country text not null, tenant text not null);
    create table orders (id integer primary key, customer_id integer not null references customers(id),
      tenant text not null, status text not null, amount numeric(10,2) not null, created_at timestamptz not null);
    insert into customers
      select i, 'customer ' || i, (array['DE','FR','US','JP'])[1 + i % 4], (array['acme','globex','initech'])[1 + i % 3]
      from generate_series(1, 30) i;
    insert into orders
      select i, 1 + (i * 7) % 30, c.tenant, (array['paid','shipped','refunded'])[1 + i % 3],
        (i % 50) * 3.5 + 10, timestamptz '2026-01-01 00:00:00+00' + (i * interval '17 hours')
      from generate_series(1, 300) i join customers c on c.id = 1 + (i * 7) % 30;
  `)
  const url = new URL(POSTGRES_URL)
  return {
    schema,
    credentials: {
      host: url.hostname,
      port: Number(url.port || 5432),
      username: decodeURIComponent(url.username || 'postgres'),
      password: decodeURIComponent(url.password || 'unused'),
      database: url.pathname.slice(1) || 'test',
      schema,
    },
    async query<T>(sql: string, params: unknown[] = []) {
      return (await client.query(sql, params)).rows as T[]
    },
    async drop() {
      await client.query(`drop schema if exists ${schema} cascade`)
      await client.end()
    },
  }
}

/** `slow_orders`: the orders behind a view whose every read first sleeps `seconds` (a statement to time out or cancel). */
export async function createSlowOrders(wh: PgWarehouse, seconds: number): Promise<void> {
  await wh.query(
    `create view ${wh.schema}.slow_orders as select o.* from ${wh.schema}.orders o cross join (select pg_sleep(${seconds})) s`,
  )
}
