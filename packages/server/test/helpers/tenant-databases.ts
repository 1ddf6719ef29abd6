import { randomBytes } from 'node:crypto'
import mysql from 'mysql2/promise'
import pg from 'pg'
import { MARIADB } from './mariadb-warehouse.js'
import { POSTGRES, requireService, withPostgres } from './services.js'

/** The live engines DATABASE tenancy is proven on end to end. */
export type TenantDatabaseEngine = 'mariadb' | 'postgres'

/**
 * Tenant databases on a live engine: `a` and `b` each with `orders` of its own and no tenant
 * column, `c` without the table (until `addOrders`), behind a datasource whose user may read
 * those three and no other database's tables. Dropped by `drop`.
 */
export interface TenantDatabases {
  readonly engine: TenantDatabaseEngine
  readonly datasourceType: 'mysql' | 'postgres'
  /** The datasource's credentials (name left to the caller): its own database is `a`. */
  readonly credentials: object
  /** The tenant databases: the clientIds. */
  readonly a: string
  readonly b: string
  /** A tenant database created without `orders`. */
  readonly c: string
  /** The schema of `orders` as the model names it (MariaDB: the database; PostgreSQL: the same schema in each). */
  readonly schema: string
  /** Databases of the server the datasource must never accept as a tenant. */
  readonly others: readonly string[]
  /** The tenant database's own sum of amounts, asked of the engine directly. */
  ownSum(db: string): Promise<number>
  /** Creates `orders` in `c` (30 orders of its own), readable by the datasource's user. */
  addOrders(db: string): Promise<void>
  /** Sets one order's amount (a changed row). */
  setAmount(db: string, id: number, amount: number): Promise<void>
  /** Renames `amount` in the tenant database, so that its part of a build fails; `repair` renames it back. */
  breakAmount(db: string): Promise<void>
  repairAmount(db: string): Promise<void>
  /**
   * Creates a tenant database while the datasource is in use (`<prefix>n<k>`, with `orders` of
   * its own: 30 orders, C's), readable by the datasource's user; `drop` drops it too.
   */
  addDatabase(): Promise<string>
  /** Drops a tenant database (PostgreSQL: WITH (FORCE), its sessions terminated). */
  dropDatabase(db: string): Promise<void>
  /** PostgreSQL only: an extra tenant database and the server's view of the datasource's sessions. */
  readonly pg?: PgTenantExtras
  drop(): Promise<void>
}

/** What the PostgreSQL case adds: an extra database to drop mid-build, a lock to hold a read, the role's sessions. */
export interface PgTenantExtras {
  /** A tenant database without `orders` (created with the others, sorted after them), for `dropDatabase`. */
  readonly extra: string
  /** Drops a database WITH (FORCE), as other test files do at any moment (its sessions terminated). */
  dropDatabase(db: string): Promise<void>
  /** Holds ACCESS EXCLUSIVE on `db`'s orders (a read of it waits) until the returned release is called. */
  lockOrders(db: string): Promise<() => Promise<void>>
  /** Sessions of the datasource's role, per database, as pg_stat_activity lists them; `waiting`: on a lock. */
  sessions(): Promise<{ database: string; waiting: boolean }[]>
}

/** The engines reachable here: PostgreSQL always, MariaDB when there (skipped loudly, required under CI=true). */
export async function tenantDatabaseEngines(): Promise<TenantDatabaseEngine[]> {
  const hasMaria = await requireService('MariaDB', '127.0.0.1', 3306)
  return [...(hasMaria ? ['mariadb' as const] : []), 'postgres']
}

/** `n` orders of one tenant: amounts from `base`, statuses in turn, one every 7 hours from 1 January 2026 (UTC). */
function orders(n: number, base: number): [number, string, string, string][] {
  return Array.from({ length: n }, (_, i) => [
    i + 1,
    ['paid', 'shipped', 'refunded'][i % 3] as string,
    (base + (i % 17) * 2.25).toFixed(2),
    new Date(Date.UTC(2026, 0, 1) + i * 7 * 3_600_000).toISOString().replace('T', ' ').slice(0, 19),
  ])
}

/** A's 120 orders run into February, B's 90 stay in January. */
const A_ORDERS = orders(120, 10)
const B_ORDERS = orders(90, 1000)
/** C's, once it has the table. */
const C_ORDERS = orders(30, 500)

export function createTenantDatabases(engine: TenantDatabaseEngine): Promise<TenantDatabases> {
  return engine === 'mariadb' ? mariadbTenants() : postgresTenants()
}

/**
 * MariaDB: a database is a schema (`test_rt_<hex>_a`, `_b`, `_c`, then `_n1`… from `addDatabase`).
 * The datasource's user is granted SELECT on the tenant databases only, so SHOW DATABASES (its
 * `databases()`) lists exactly those that exist.
 */
async function mariadbTenants(): Promise<TenantDatabases> {
  const prefix = `test_rt_${randomBytes(4).toString('hex')}_`
  const a = `${prefix}a`
  const b = `${prefix}b`
  const c = `${prefix}c`
  const user = prefix.slice(0, -1)
  const password = `Pw-${randomBytes(8).toString('hex')}`
  const admin = await mysql.createConnection({ ...MARIADB })
  const added: string[] = []
  const drop = async () => {
    await admin.query(`drop user if exists '${user}'@'%'`)
    for (const db of [a, b, c, ...added]) await admin.query(`drop database if exists \`${db}\``)
    await admin.end()
  }
  const createOrders = async (db: string, rows: readonly [number, string, string, string][]) => {
    await admin.query(`create table \`${db}\`.orders (id int primary key, status text not null,
        amount decimal(10,2) not null, created_at datetime not null)`)
    await admin.query(`insert into \`${db}\`.orders values ?`, [rows])
  }
  try {
    for (const [db, rows] of [
      [a, A_ORDERS],
      [b, B_ORDERS],
    ] as const) {
      await admin.query(`create database \`${db}\` character set utf8mb4 collate utf8mb4_general_ci`)
      await createOrders(db, rows)
    }
    await admin.query(`create database \`${c}\` character set utf8mb4 collate utf8mb4_general_ci`)
    await admin.query(`create user '${user}'@'%' identified by '${password}'`)
    for (const db of [a, b, c]) await admin.query(`grant select on \`${db}\`.* to '${user}'@'%'`)
  } catch (err) {
    await drop()
    throw err
  }
  return {
    engine: 'mariadb',
    datasourceType: 'mysql',
    credentials: { host: MARIADB.host, port: MARIADB.port, user, password, database: a },
    a,
    b,
    c,
    schema: a,
    others: ['mysql', 'information_schema', 'test'],
    async addOrders(db) {
      await createOrders(db, C_ORDERS)
    },
    async addDatabase() {
      const db = `${prefix}n${added.length + 1}`
      added.push(db)
      await admin.query(`create database \`${db}\` character set utf8mb4 collate utf8mb4_general_ci`)
      await createOrders(db, C_ORDERS)
      await admin.query(`grant select on \`${db}\`.* to '${user}'@'%'`)
      return db
    },
    async dropDatabase(db) {
      await admin.query(`drop database if exists \`${db}\``)
    },
    async setAmount(db, id, amount) {
      await admin.query(`update \`${db}\`.orders set amount = ? where id = ?`, [amount, id])
    },
    async ownSum(db) {
      const [rows] = await admin.query(`select sum(amount) as s from \`${db}\`.orders`)
      return Number((rows as { s: string }[])[0]?.s)
    },
    async breakAmount(db) {
      await admin.query(`alter table \`${db}\`.orders change amount amount_gone decimal(10,2) not null`)
    },
    async repairAmount(db) {
      await admin.query(`alter table \`${db}\`.orders change amount_gone amount decimal(10,2) not null`)
    },
    drop,
  }
}

const PG = POSTGRES
const pgAdmin = <T>(database: string, work: (c: pg.Client) => Promise<T>): Promise<T> => withPostgres(work, database)

/**
 * PostgreSQL: a tenant is a database of its own (`test_rt_<hex>_a`, `_b`, `_c`, `_d`), `a` and `b` with
 * the same schema `shop` and their own `shop.orders`; the datasource connects to `a` as a role
 * of its own (no superuser), granted `shop.orders` in the tenant databases, and the connector
 * opens a pool per tenant database. Its databases are every database it may CONNECT to: on this
 * shared server PUBLIC may connect to most (`postgres`, `test`, other runs'), which are then
 * tenant databases too, without a table this role may read; `x` revokes CONNECT from PUBLIC, so
 * it is never one.
 */
async function postgresTenants(): Promise<TenantDatabases> {
  const prefix = `test_rt_${randomBytes(4).toString('hex')}_`
  const a = `${prefix}a`
  const b = `${prefix}b`
  const c = `${prefix}c`
  const d = `${prefix}d`
  const x = `${prefix}x`
  const role = `${prefix}role`
  const schema = 'shop'
  const added: string[] = []
  const drop = async () => {
    await pgAdmin('test', async (client) => {
      for (const db of [a, b, c, d, x, ...added]) await client.query(`drop database if exists ${db} with (force)`)
      await client.query(`drop role if exists ${role}`)
    })
  }
  const fill = async (db: string, rows: readonly [number, string, string, string][]) => {
    await pgAdmin(db, async (client) => {
      await client.query(`create schema if not exists ${schema}`)
      await client.query(`create table ${schema}.orders (id int primary key, status text not null,
          amount numeric(10,2) not null, created_at timestamp not null)`)
      await client.query(
        `insert into ${schema}.orders
             select * from unnest($1::int[], $2::text[], $3::numeric[], $4::timestamp[])`,
        [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])],
      )
      await client.query(`grant usage on schema ${schema} to ${role}`)
      await client.query(`grant select on ${schema}.orders to ${role}`)
    })
  }
  try {
    await pgAdmin('test', async (client) => {
      await client.query(`create role ${role} login`)
      for (const db of [a, b, c, d, x]) await client.query(`create database ${db}`)
      await client.query(`revoke connect on database ${x} from public`)
    })
    await fill(a, A_ORDERS)
    await fill(b, B_ORDERS)
  } catch (err) {
    await drop()
    throw err
  }
  const inTenant = (db: string, sql: string, params: unknown[] = []) =>
    pgAdmin(db, (client) => client.query(sql, params))
  const dropDatabase = async (db: string) => {
    await pgAdmin('test', (client) => client.query(`drop database if exists ${db} with (force)`))
  }
  return {
    engine: 'postgres',
    datasourceType: 'postgres',
    credentials: { host: PG.host, port: PG.port, username: role, password: 'unused', database: a, schema },
    a,
    b,
    c,
    schema,
    others: ['template1', 'template0', x],
    pg: {
      extra: d,
      dropDatabase,
      async lockOrders(db) {
        const client = new pg.Client({ ...PG, database: db })
        await client.connect()
        await client.query('begin')
        await client.query(`lock table ${schema}.orders in access exclusive mode`)
        return async () => {
          await client.query('commit')
          await client.end()
        }
      },
      async sessions() {
        const { rows } = await pgAdmin('test', (client) =>
          client.query<{ datname: string; waiting: boolean }>(
            `select datname, wait_event_type = 'Lock' as waiting from pg_stat_activity where usename = $1`,
            [role],
          ),
        )
        return rows.map((r) => ({ database: r.datname, waiting: r.waiting === true }))
      },
    },
    async ownSum(db) {
      const { rows } = await inTenant(db, `select sum(amount) as s from ${schema}.orders`)
      return Number((rows as { s: string }[])[0]?.s)
    },
    async addOrders(db) {
      await fill(db, C_ORDERS)
    },
    async addDatabase() {
      const db = `${prefix}n${added.length + 1}`
      added.push(db)
      await pgAdmin('test', (client) => client.query(`create database ${db}`))
      await fill(db, C_ORDERS)
      return db
    },
    dropDatabase,
    async setAmount(db, id, amount) {
      await inTenant(db, `update ${schema}.orders set amount = $1 where id = $2`, [amount, id])
    },
    async breakAmount(db) {
      await inTenant(db, `alter table ${schema}.orders rename column amount to amount_gone`)
    },
    async repairAmount(db) {
      await inTenant(db, `alter table ${schema}.orders rename column amount_gone to amount`)
    },
    drop,
  }
}
