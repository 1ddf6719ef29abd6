import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReadRollupArgs, ROLLUP_READER_HANDLERS, readerState } from './rollup-reader.js'

const read = ROLLUP_READER_HANDLERS['duckdb.readRollup']
const dir = mkdtempSync(join(tmpdir(), 'strata-rollup-reader-'))
const root = join(dir, 'rollups')
const outside = join(dir, 'elsewhere')
let duck: DuckDBInstance

async function write(path: string, select: string): Promise<void> {
  const conn = await duck.connect()
  try {
    const tmp = `${path}.tmp`
    await conn.run(`COPY (${select}) TO '${tmp}' (FORMAT parquet)`)
    renameSync(tmp, path) // as a build publishes: renamed over the old name
  } finally {
    conn.closeSync()
  }
}

function args(files: string[], sql: string, memoryLimitMb = 256): ReadRollupArgs {
  return { root, files, statements: [{ sql, params: [] }], maxRows: 100, timeZone: 'UTC', memoryLimitMb }
}

/** `n` rows over 100 tenants and a year of days, as a rollup holds them. */
const rollupRows = (n: number, seed = 0) =>
  `SELECT 't' || (i % 100) AS tenant, DATE '2026-01-01' + CAST(i % 365 AS INTEGER) AS day, i + ${seed} AS revenue FROM range(${n}) r(i)`

beforeAll(async () => {
  mkdirSync(root, { recursive: true })
  mkdirSync(outside, { recursive: true })
  duck = await DuckDBInstance.create(':memory:')
})
afterAll(() => {
  duck.closeSync()
  rmSync(dir, { recursive: true, force: true })
})

describe('rollup reader', () => {
  it('reads the current file on a kept connection, also after a rebuild changed its columns', async () => {
    const file = join(root, 'a.parquet')
    await write(file, `SELECT 'x' AS region, 1 AS n UNION ALL SELECT 'y', 2`)
    const sql = 'SELECT sum(n) AS total FROM "main"."rollup"'
    expect((await read(args([file], sql)))[0]?.rows).toEqual([{ total: 3 }])
    await write(file, `SELECT 'x' AS region, 5 AS n`)
    expect((await read(args([file], sql)))[0]?.rows).toEqual([{ total: 5 }])
    // rebuilt with other columns: the kept view binds the file as it is now
    await write(file, `SELECT 7.5 AS n, 'x' AS region, DATE '2026-03-01' AS day`)
    const rows = (await read(args([file], 'SELECT * FROM "main"."rollup"')))[0]?.rows
    expect(rows).toEqual([{ n: 7.5, region: 'x', day: '2026-03-01' }])
  })

  it('keeps a rollup in memory and reads a file rebuilt under it, never the old copy', async () => {
    const files = [join(root, 'm1.parquet'), join(root, 'm2.parquet')]
    await write(files[0] as string, `SELECT 't1' AS tenant, DATE '2026-01-01' AS day, 10 AS revenue`)
    await write(files[1] as string, `SELECT 't1' AS tenant, DATE '2026-02-01' AS day, 5 AS revenue`)
    const sql = 'SELECT sum(revenue) AS total FROM "main"."rollup"'
    const before = await readerState(root, 128)
    expect((await read(args(files, sql, 128)))[0]?.rows).toEqual([{ total: 15 }])
    const loaded = await readerState(root, 128)
    expect(loaded.tables).toBe(before.tables + 1)
    expect((await read(args(files, sql, 128)))[0]?.rows).toEqual([{ total: 15 }])
    // one month rebuilt (renamed over its old name): the next read has it
    await write(files[1] as string, `SELECT 't1' AS tenant, DATE '2026-02-01' AS day, 7 AS revenue`)
    expect((await read(args(files, sql, 128)))[0]?.rows).toEqual([{ total: 17 }])
    // the old copy is dropped, not kept beside the new one
    expect((await readerState(root, 128)).tables).toBe(loaded.tables)
    // a file gone: the read fails (the server answers from the warehouse)
    unlinkSync(files[1] as string)
    await expect(read(args(files, sql, 128))).rejects.toThrow(/ENOENT|no such file/i)
  })

  it('runs parallel reads of one rollup at once, each on a connection of its own, all answers right', async () => {
    const file = join(root, 'parallel.parquet')
    await write(file, rollupRows(50_000))
    const reads = Array.from({ length: 8 }, (_, i) =>
      read({
        ...args(
          [file],
          'SELECT count(*)::INTEGER AS n, sum(revenue)::BIGINT AS total FROM "main"."rollup" WHERE tenant = $1',
          192,
        ),
        statements: [
          {
            sql: 'SELECT count(*)::INTEGER AS n, sum(revenue)::BIGINT AS total FROM "main"."rollup" WHERE tenant = $1',
            params: [`t${i}`],
          },
        ],
        order: ['tenant', 'day'],
      }),
    )
    const answers = await Promise.all(reads)
    for (const [i, answer] of answers.entries()) {
      // tenant ti holds rows i, i + 100, … below 50,000
      const rows = Array.from({ length: 500 }, (_, k) => i + 100 * k)
      expect(answer[0]?.rows).toEqual([{ n: 500, total: rows.reduce((a, b) => a + b, 0) }])
    }
    // eight connections were in use together (one each), then kept for the next reads
    expect((await readerState(root, 192)).idle).toBe(8)
  })

  it('runs a statement on a kept connection that prepared it already, not on one that must prepare it again', async () => {
    const file = join(root, 'affinity.parquet')
    await write(file, rollupRows(5_000))
    // an instance of its own (memory limit 96): its connections are only this test's
    const reading = (sql: string, tenant: string) =>
      read({ ...args([file], sql, 96), statements: [{ sql, params: [tenant] }], order: ['tenant', 'day'] })
    const sums = 'SELECT sum(revenue)::BIGINT AS total FROM "main"."rollup" WHERE tenant = $1'
    const days = 'SELECT count(DISTINCT day)::INTEGER AS days FROM "main"."rollup" WHERE tenant = $1'
    // two at once: a connection each, each preparing its statement
    await Promise.all([reading(sums, 't1'), reading(days, 't1')])
    expect(await readerState(root, 96)).toMatchObject({ idle: 2, prepared: 2 })
    // one after the other, alternating: each goes to the connection that has it (the most
    // recently used one, taken blindly, has the other statement and would prepare this one too)
    for (const tenant of ['t2', 't3', 't4']) {
      expect((await reading(sums, tenant))[0]?.rows).toHaveLength(1)
      expect((await reading(days, tenant))[0]?.rows).toEqual([{ days: 50 }])
    }
    expect(await readerState(root, 96)).toMatchObject({ idle: 2, prepared: 2 })
  })

  it('keeps the tables under their budget: older ones dropped, a larger rollup read from its files', async () => {
    // a 64 MB instance: its tables may hold 16 MB together
    const state = await readerState(root, 64)
    expect(state.budgetBytes).toBe(16 * 1024 * 1024)
    const sql = 'SELECT count(*)::INTEGER AS n FROM "main"."rollup"'
    for (let i = 0; i < 6; i++) {
      const file = join(root, `small-${i}.parquet`)
      await write(file, rollupRows(150_000, i))
      expect((await read(args([file], sql, 64)))[0]?.rows).toEqual([{ n: 150_000 }])
      const now = await readerState(root, 64)
      expect(now.bytes).toBeGreaterThan(0)
      expect(now.bytes).toBeLessThanOrEqual(now.budgetBytes)
    }
    // six rollups read, fewer kept: the least recently read were dropped
    expect((await readerState(root, 64)).tables).toBeLessThan(6)
    // over the budget on its own: read from the files, right all the same
    const big = join(root, 'big.parquet')
    await write(big, `SELECT i AS a, i * 2 AS b, i * 3 AS c, 'x' || i AS d FROM range(3000000) r(i)`)
    const before = await readerState(root, 64)
    expect(
      (await read(args([big], 'SELECT count(*)::INTEGER AS n, max(a)::BIGINT AS top FROM "main"."rollup"', 64)))[0]
        ?.rows,
    ).toEqual([{ n: 3_000_000, top: 2_999_999 }])
    const after = await readerState(root, 64)
    expect(after.bytes).toBeLessThanOrEqual(after.budgetBytes)
    expect(after.tables).toBeLessThanOrEqual(before.tables)
  })

  it('reads nothing outside the rollups folder, by name or through ..', async () => {
    const other = join(outside, 'secret.parquet')
    await write(other, `SELECT 42 AS n`)
    await expect(read(args([other], 'SELECT * FROM "main"."rollup"'))).rejects.toThrow(/outside the rollups root/)
    const sneaky = `${root}/../elsewhere/secret.parquet`
    await expect(read(args([sneaky], 'SELECT * FROM "main"."rollup"'))).rejects.toThrow(/Permission|access/i)
    const file = join(root, 'b.parquet')
    await write(file, `SELECT 1 AS n`)
    const lit = other.replaceAll("'", "''")
    await expect(read(args([file], `SELECT * FROM read_parquet('${lit}')`))).rejects.toThrow(/Permission|access/i)
  })
})
