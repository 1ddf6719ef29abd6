import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DuckdbDialect } from './duckdb.js'
import { getDialect } from './registry.js'

/**
 * A rollup's average is rounded as the warehouse rounds its own (MySQL/MariaDB: an exact column's
 * AVG is a DECIMAL with 4 more places), by the DuckDB dialect that reads rollups, in integers.
 */
describe('average scale', () => {
  it('MySQL: 4 places more than an exact column; none for a double', () => {
    const mysql = getDialect('mysql')
    expect(mysql.averageScale?.('decimal(10,2)')).toBe(6)
    expect(mysql.averageScale?.('DECIMAL(12, 4)')).toBe(8)
    expect(mysql.averageScale?.('decimal(10)')).toBe(4)
    expect(mysql.averageScale?.('int(11)')).toBe(4)
    expect(mysql.averageScale?.('bigint unsigned')).toBe(4)
    expect(mysql.averageScale?.('double')).toBeUndefined()
    expect(mysql.averageScale?.('varchar(20)')).toBeUndefined()
    expect(getDialect('postgres').averageScale?.('numeric(10,2)')).toBeUndefined()
  })

  let duck: DuckDBInstance
  beforeAll(async () => {
    duck = await DuckDBInstance.create(':memory:')
  })
  afterAll(() => duck.closeSync())

  /** The DuckDB dialect's average of the sums and counts given as rows, at `scale`. */
  const average = async (rows: [number, number][], scale: number | undefined): Promise<unknown> => {
    const conn = await duck.connect()
    try {
      const values = rows.map(([s, c]) => `(${s}::DOUBLE, ${c}::BIGINT)`).join(', ')
      const expr = new DuckdbDialect().reaggregate('avg', ['s', 'c'], scale)
      const reader = await conn.runAndReadAll(`SELECT ${expr} AS v FROM (VALUES ${values}) t(s, c)`)
      return reader.getRowObjectsJson()[0]?.v
    } finally {
      conn.closeSync()
    }
  }

  it('DuckDB rounds half away from zero at the scale, where a double would land either side', async () => {
    // MariaDB: AVG over 1.01 and 31 zeros (DECIMAL(10,2)) is 0.031563 (0.0315625 rounded up)
    expect(await average([[1.01, 32]], 6)).toBe(0.031563)
    expect(await average([[-1.01, 32]], 6)).toBe(-0.031563)
    expect(await average([[571, 6]], 6)).toBe(95.166667)
    expect(await average([[571, 6]], 4)).toBe(95.1667)
    // sums and counts of several groups added first
    expect(
      await average(
        [
          [200, 3],
          [371, 3],
        ],
        6,
      ),
    ).toBe(95.166667)
    // no rows counted: null, as AVG over none
    expect(await average([[0, 0]], 6)).toBeNull()
    // without a scale: the double quotient
    expect(Number(await average([[571, 6]], undefined))).toBeCloseTo(95.16666666666667, 12)
  })
})
