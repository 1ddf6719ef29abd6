/**
 * MySQL/MariaDB TIMESTAMP columns hold an instant and hand it over as wall-clock time in the
 * session's `time_zone` (MariaDB: https://mariadb.com/kb/en/timestamp/ "the value is converted
 * from the session time zone to UTC for storage, and back … for retrieval"), while DATETIME
 * columns are plain wall clocks (taken to be UTC here). A time-zone-converted column must
 * therefore convert a TIMESTAMP from the session zone, not from +00:00, or every value is off by
 * the session's offset. Checked on the real MariaDB with a session zone that is not UTC.
 *
 * This MariaDB has no time zone tables (mysql_tzinfo_to_sql), so CONVERT_TZ knows no IANA names
 * and the connector sets the session zone as its offset: the token zone bound in the compiled
 * statement is replaced by its offset the same way (Asia/Tokyo has no DST: +09:00 all year).
 */
import { randomBytes } from 'node:crypto'
import mysql from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ctx, metric } from '../../../test/fixtures/query.js'
import { requireService } from '../../../test/helpers/services.js'
import { compileMetric } from '../../query/compile.js'
import { getDialect } from '../../query/dialects/registry.js'
import { buildModel } from '../../query/model.js'
import type { ConnectorOptions } from '../types.js'
import { MysqlConnector } from './connector.js'

const up = await requireService('MariaDB', '127.0.0.1', 3306)
const table = `strata_tszone_${randomBytes(4).toString('hex')}`
const options: ConnectorOptions = { connectTimeoutMs: 1500, poolMax: 2 }
const credentials = { name: 'm', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'test' }

async function admin<T>(work: (c: mysql.Connection) => Promise<T>): Promise<T> {
  const c = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', database: 'test' })
  try {
    return await work(c)
  } finally {
    await c.end()
  }
}

describe.skipIf(!up)('mysql: time-zone-converted TIMESTAMP and DATETIME columns (MariaDB)', () => {
  const connector = new MysqlConnector(credentials, options)

  beforeAll(async () => {
    await admin(async (c) => {
      await c.query(`create table ${table} (id int primary key, ts timestamp null, dt datetime null)`)
      await c.query("set time_zone = '+00:00'")
      // the same instant in both: 2024-01-01T00:00:00Z
      await c.query(`insert into ${table} values (1, '2024-01-01 00:00:00', '2024-01-01 00:00:00')`)
      // around 2 January in Tokyo (+09:00), which runs from 2024-01-01T15:00Z to 2024-01-02T15:00Z
      await c.query(
        `insert into ${table} values (2, '2024-01-01 14:30:00', '2024-01-01 14:30:00'), (3, '2024-01-01 16:00:00', '2024-01-01 16:00:00'), (4, '2024-01-02 14:00:00', '2024-01-02 14:00:00'), (5, '2024-01-02 16:00:00', '2024-01-02 16:00:00')`,
      )
    })
  })

  afterAll(async () => {
    await connector.close()
    await admin((c) => c.query(`drop table if exists ${table}`))
  })

  it.each(['America/New_York', 'UTC', 'Asia/Kolkata'])(
    'in a %s session, both columns render 2024-01-01T00:00:00Z as Tokyo wall time',
    async (sessionZone) => {
      const tables = await connector.introspect()
      const model = buildModel(
        tables.filter((t) => t.name === table),
        {
          tableList: [
            {
              schemaName: 'test',
              name: table,
              columns: [
                { name: 'ts', isTimezoneConversion: true },
                { name: 'dt', isTimezoneConversion: true },
              ],
            },
          ],
          relationships: [],
        },
      )
      const m = metric({
        from: `test.${table}`,
        dimensions: [
          { name: 'ts', column: 'ts' },
          { name: 'dt', column: 'dt' },
        ],
      })
      const compiled = compileMetric({
        metric: m,
        model,
        dialect: getDialect('mysql'),
        context: ctx({ timezone: 'Asia/Tokyo' }),
      })
      const params = compiled.params.map((p) => (p === 'Asia/Tokyo' ? '+09:00' : p))
      const result = await connector.execute(compiled.sql, {
        params,
        timeoutMs: 5000,
        maxRows: 10,
        timezone: sessionZone,
      })
      expect(result.rows).toContainEqual({ ts: '2024-01-01T09:00:00', dt: '2024-01-01T09:00:00' })
    },
  )

  // Regression: the range's bounds were bound as UTC wall-clock text, which MariaDB reads in the
  // session zone (the token's) when it compares them with a TIMESTAMP: in Tokyo the day began
  // nine hours late, taking id 2 (23:30 on 1 January there) and dropping id 4 (23:00 on 2 January).
  it.each(['ts', 'dt'])(
    'a date range on the %s column selects the token-zone day (Asia/Tokyo session)',
    async (column) => {
      const tables = await connector.introspect()
      const model = buildModel(tables.filter((t) => t.name === table))
      const compiled = compileMetric({
        metric: metric({ from: `test.${table}`, dimensions: [{ name: 'id', column: 'id' }] }),
        model,
        dialect: getDialect('mysql'),
        context: ctx({
          timezone: 'Asia/Tokyo',
          filters: [
            {
              table: `test.${table}`,
              column,
              value: { startDate: '2024-01-02', endDate: '2024-01-02' },
              source: 'dashboard',
            },
          ],
        }),
      })
      const result = await connector.execute(compiled.sql, {
        params: compiled.params,
        timeoutMs: 5000,
        maxRows: 10,
        timezone: 'Asia/Tokyo',
      })
      expect(result.rows.map((r) => r.id).sort()).toEqual([3, 4])
    },
  )
})
