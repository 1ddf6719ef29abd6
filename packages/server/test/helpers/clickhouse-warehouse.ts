import { randomBytes } from 'node:crypto'
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client'
import type { Warehouse } from '../reliability/ground-truth.js'

export const CLICKHOUSE = { host: '127.0.0.1', port: 8123, user: 'default', password: '' } as const

/** The warehouse of helpers/warehouse.ts copied into its own database on a ClickHouse (the local one by default), dropped by `drop`. */
export interface ClickhouseWarehouse {
  /** The database's name: the `schemaName` of the datamart's tables. */
  readonly database: string
  /** Credentials of a `clickhouse` datasource reaching it (name left to the caller). */
  readonly credentials: { host: string; port: number; user: string; password: string; database: string }
  /** A query without parameters (18.x has none), read whole as JSONEachRow. */
  query<T = Record<string, unknown>>(sql: string): Promise<T[]>
  drop(): Promise<void>
}

/** Where a ClickHouse HTTP interface answers, and its operator's credentials. */
export interface ClickhouseServer {
  readonly host: string
  readonly port: number
  readonly user: string
  readonly password: string
}

const connect = (server: ClickhouseServer = CLICKHOUSE): ClickHouseClient =>
  createClient({
    url: `http://${server.host}:${server.port}`,
    username: server.user,
    password: server.password,
    log: { level: ClickHouseLogLevel.OFF },
  })

/** The local server's `version()`, e.g. `18.16.1`. */
export async function clickhouseVersion(): Promise<string> {
  const client = connect()
  try {
    const rs = await client.query({ query: 'SELECT version() AS version', format: 'JSONEachRow' })
    const [row] = await rs.json<{ version: string }>()
    if (!row) throw new Error('ClickHouse returned no version')
    return row.version
  } finally {
    await client.close()
  }
}

/** `YYYY-MM-DD HH:MM:SS` in UTC: the text form of a `DateTime('UTC')` value. */
const utc = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19)

/**
 * customers and orders with the columns of the PostgreSQL warehouse (integer → Int32, text →
 * String, numeric(10,2) → Decimal(10, 2), timestamptz → DateTime('UTC')), MergeTree tables
 * ordered by id, holding exactly the rows of `data`. The DDL is fixed text with no values; the
 * rows go in as JSONEachRow through @clickhouse/client (the client serialises the values, none
 * is spliced into SQL). String comparisons in ClickHouse are byte-exact: no collation folds
 * case or pads spaces.
 */
export async function createClickhouseWarehouse(
  data: Warehouse,
  server: ClickhouseServer = CLICKHOUSE,
): Promise<ClickhouseWarehouse> {
  const database = `strata_iso_${randomBytes(5).toString('hex')}`
  const client = connect(server)
  const drop = async () => {
    await client.command({ query: `DROP DATABASE IF EXISTS ${database}` })
  }
  try {
    await client.command({ query: `CREATE DATABASE ${database}` })
    await client.command({
      query: `CREATE TABLE ${database}.customers (id Int32, name String, country String, tenant String)
        ENGINE = MergeTree() ORDER BY id`,
    })
    await client.command({
      query: `CREATE TABLE ${database}.orders (id Int32, customer_id Int32, tenant String, status String,
        amount Decimal(10, 2), created_at DateTime('UTC')) ENGINE = MergeTree() ORDER BY id`,
    })
    await client.insert({
      table: `${database}.customers`,
      format: 'JSONEachRow',
      values: data.customers.map((c) => ({ id: c.id, name: `customer ${c.id}`, country: c.country, tenant: c.tenant })),
    })
    await client.insert({
      table: `${database}.orders`,
      format: 'JSONEachRow',
      values: data.orders.map((o) => ({
        id: o.id,
        customer_id: o.customerId,
        tenant: o.tenant,
        status: o.status,
        amount: o.amount,
        created_at: utc(o.createdAt),
      })),
    })
  } catch (err) {
    await drop().catch(() => undefined)
    await client.close()
    throw err
  }
  return {
    database,
    credentials: { host: server.host, port: server.port, user: server.user, password: server.password, database },
    async query<T>(sql: string) {
      const rs = await client.query({ query: sql, format: 'JSONEachRow' })
      return rs.json<T>()
    },
    async drop() {
      try {
        await drop()
      } finally {
        await client.close()
      }
    },
  }
}
