import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReadRollupArgs, ROLLUP_READER_HANDLERS } from './rollup-reader.js'

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

function args(files: string[], sql: string): ReadRollupArgs {
  return { root, files, statements: [{ sql, params: [] }], maxRows: 100, timeZone: 'UTC', memoryLimitMb: 256 }
}

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
