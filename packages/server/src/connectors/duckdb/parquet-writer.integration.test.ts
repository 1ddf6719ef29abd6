import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, describe, expect, it } from 'vitest'
import { type ParquetColumn, PARQUET_HANDLERS as writer } from './parquet-writer.js'

/**
 * The engine process's Parquet writer, called in this process: batches of a rollup's shapes
 * (text, numbers, counts, dates as text, NULLs) appended, then the file read back.
 */
const dir = mkdtempSync(join(tmpdir(), 'strata-parquet-writer-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const columns: ParquetColumn[] = [
  { name: 'day', type: 'DATE' },
  { name: 'region', type: 'VARCHAR' },
  { name: 'revenue', type: 'DOUBLE' },
  { name: 'orders', type: 'BIGINT' },
  { name: 'note', type: 'VARCHAR' },
]

/**
 * Row i of the file, as the warehouse would give it: every 13th region and 7th revenue NULL; the
 * region and the day repeat (a chunk's few distinct texts go as an ENUM), the note mostly not
 * (as VARCHAR), and text that SQL or a JS object would mangle.
 */
function row(i: number): unknown[] {
  return [
    `2026-11-${String(1 + (i % 28)).padStart(2, '0')}`,
    i % 13 === 0 ? null : `r${i % 5}`,
    i % 7 === 0 ? null : i * 1.25,
    i % 50,
    i % 3 === 0 ? `n${i}` : ['', "it's", '__proto__', 'üé😀'][i % 4],
  ]
}

describe('the Parquet writer', () => {
  it('a file of batches small and large holds every row as given, in row groups of at most 32,768', async () => {
    const { writer: id } = await writer['duckdb.parquetOpen']({ memoryLimitMb: 256 })
    // one row, one batch under a chunk, batches over several chunks: 70,001 rows in all
    const sizes = [1, 1_500, 5_000, 20_000, 43_500]
    let next = 0
    for (const [b, size] of sizes.entries()) {
      const values = columns.map((_, c) => Array.from({ length: size }, (_, r) => row(next + r)[c]))
      next += size
      await writer['duckdb.parquetAppend']({
        writer: id,
        parts: [{ key: 'k', values, ...(b === 0 ? { columns } : {}) }],
      })
    }
    const path = join(dir, 'k.parquet')
    expect((await writer['duckdb.parquetFinish']({ writer: id, files: [{ key: 'k', path }] })).files).toEqual([
      { key: 'k', rows: next },
    ])
    const duck = await DuckDBInstance.create(':memory:')
    try {
      const conn = await duck.connect()
      const read = await conn.runAndReadAll(
        `select strftime(day, '%Y-%m-%d') as day, region, revenue, orders, note from read_parquet('${path}')`,
      )
      const got = read.getRows().map((r) => [r[0], r[1], r[2], Number(r[3]), r[4]])
      const want = Array.from({ length: next }, (_, i) => row(i))
      const key = (r: unknown[]) => JSON.stringify(r)
      expect(got.map(key).sort()).toEqual(want.map(key).sort())
      const groups = await conn.runAndReadAll(
        `select row_group_id, max(row_group_num_rows) as n from parquet_metadata('${path}') group by 1 order by 1`,
      )
      const rows = groups.getRows().map((r) => Number(r[1]))
      expect(rows.length).toBe(Math.ceil(next / 32_768))
      expect(Math.max(...rows)).toBeLessThanOrEqual(32_768)
      expect(rows.reduce((a, b) => a + b, 0)).toBe(next)
      conn.closeSync()
    } finally {
      duck.closeSync()
    }
    expect(await writer['duckdb.parquetWriters']()).toBe(0)
  }, 60_000)

  it('texts given as a dictionary and codes land as the texts themselves; a code outside it fails the append', async () => {
    const { writer: id } = await writer['duckdb.parquetOpen']({ memoryLimitMb: 256 })
    const shapes: ParquetColumn[] = [
      { name: 'day', type: 'DATE' },
      { name: 'region', type: 'VARCHAR' },
      { name: 'orders', type: 'BIGINT' },
    ]
    await writer['duckdb.parquetAppend']({
      writer: id,
      parts: [
        {
          key: 'k',
          columns: shapes,
          values: [Int32Array.from([0, 1, 0, -1]), Int32Array.from([2, -1, 0, 1]), [1, 2, 3, 4]],
          texts: [['2026-11-01', '2026-11-02'], ['north', "it's", ''], null],
        },
      ],
    })
    const bad = writer['duckdb.parquetAppend']({
      writer: id,
      parts: [{ key: 'k', values: [Int32Array.from([5]), Int32Array.from([0]), [1]], texts: [['a'], ['b'], null] }],
    })
    await expect(bad).rejects.toThrow('a code outside its dictionary')
    const path = join(dir, 'coded.parquet')
    await writer['duckdb.parquetFinish']({ writer: id, files: [{ key: 'k', path }] })
    const duck = await DuckDBInstance.create(':memory:')
    try {
      const conn = await duck.connect()
      const read = await conn.runAndReadAll(
        `select strftime(day, '%Y-%m-%d'), region, orders from read_parquet('${path}') order by orders`,
      )
      expect(read.getRows().map((r) => [r[0], r[1], Number(r[2])])).toEqual([
        ['2026-11-01', '', 1],
        ['2026-11-02', null, 2],
        ['2026-11-01', 'north', 3],
        [null, "it's", 4],
      ])
      conn.closeSync()
    } finally {
      duck.closeSync()
    }
  }, 60_000)
})
