import { randomBytes } from 'node:crypto'
import mysql from 'mysql2/promise'
import type { Warehouse } from '../reliability/ground-truth.js'

export const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' } as const

/** The warehouse of helpers/warehouse.ts copied into its own database on the local MariaDB, dropped by `drop`. */
export interface MariaWarehouse {
  /** The database's name: the `schemaName` of the datamart's tables. */
  readonly database: string
  /** Credentials of a `mysql` datasource reaching it (name left to the caller). */
  readonly credentials: { host: string; port: number; user: string; password: string; database: string }
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
  drop(): Promise<void>
}

/** `YYYY-MM-DD HH:MM:SS` in UTC: DATETIME holds no zone, and the mysql dialect reads naive values as UTC. */
const utc = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19)

/**
 * customers and orders with the columns of the PostgreSQL warehouse (text → TEXT, numeric(10,2)
 * → DECIMAL(10,2), timestamptz → DATETIME in UTC), holding exactly the rows of `data`, inserted
 * as server-side prepared statements (every value bound, none spliced). No column is converted
 * to a time zone, so no query needs CONVERT_TZ (and the server's zone tables, absent here).
 */
export async function createMariaWarehouse(data: Warehouse): Promise<MariaWarehouse> {
  const database = `strata_iso_${randomBytes(5).toString('hex')}`
  const conn = await mysql.createConnection({ ...MARIADB, dateStrings: true, multipleStatements: false })
  const drop = async () => {
    await conn.query(`drop database if exists \`${database}\``)
  }
  try {
    // MariaDB's own default (10.11): utf8mb4, case-insensitive and PAD SPACE, as a warehouse would usually be
    await conn.query(`create database \`${database}\` character set utf8mb4 collate utf8mb4_general_ci`)
    await conn.query(`use \`${database}\``)
    await conn.query(`create table customers (id int primary key, name text not null, country text not null,
      tenant text not null)`)
    await conn.query(`create table orders (id int primary key, customer_id int not null references customers(id),
      tenant text not null, status text not null, amount decimal(10,2) not null, created_at datetime not null)`)
    const insert = async (table: string, columns: string[], rows: (string | number)[][]) => {
      for (let i = 0; i < rows.length; i += 100) {
        const chunk = rows.slice(i, i + 100)
        const values = chunk.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ')
        await conn.execute(`insert into ${table} (${columns.join(', ')}) values ${values}`, chunk.flat())
      }
    }
    await insert(
      'customers',
      ['id', 'name', 'country', 'tenant'],
      data.customers.map((c) => [c.id, `customer ${c.id}`, c.country, c.tenant]),
    )
    await insert(
      'orders',
      ['id', 'customer_id', 'tenant', 'status', 'amount', 'created_at'],
      data.orders.map((o) => [o.id, o.customerId, o.tenant, o.status, o.amount.toFixed(2), utc(o.createdAt)]),
    )
  } catch (err) {
    await drop().catch(() => undefined)
    await conn.end()
    throw err
  }
  return {
    database,
    credentials: { ...MARIADB, database },
    async query<T>(sql: string, params: unknown[] = []) {
      const [rows] = await conn.execute(sql, params as never)
      return rows as T[]
    },
    async drop() {
      try {
        await drop()
      } finally {
        await conn.end()
      }
    },
  }
}
