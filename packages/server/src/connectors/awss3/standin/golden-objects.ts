/**
 * The golden data set (test/fixtures/golden-data.ts) as Parquet objects: DuckDB builds the
 * tables from the same DDL and rows as the live engines' golden test and writes each to Parquet
 * (which keeps the column types), and the objects are put on an S3 server under `prefix`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { goldenSql } from '../../../../test/fixtures/golden-data.js'
import type { LocalS3 } from './server.js'

export const GOLDEN_TABLES = ['tenants', 'customers', 'orders'] as const

/** One Parquet file per golden table, as bytes; `extra` statements run on schema `g` first. */
export async function goldenParquet(
  extra: readonly string[] = [],
): Promise<Record<(typeof GOLDEN_TABLES)[number], Buffer>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'strata-golden-parquet-'))
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  try {
    await conn.run('CREATE SCHEMA g')
    for (const statement of [...goldenSql('duckdb', 'g'), ...extra]) await conn.run(statement)
    const out = {} as Record<(typeof GOLDEN_TABLES)[number], Buffer>
    for (const table of GOLDEN_TABLES) {
      const file = path.join(dir, `${table}.parquet`)
      await conn.run(`COPY g.${table} TO '${file}' (FORMAT PARQUET)`) // our own temp path: no quote in it
      out[table] = await readFile(file)
    }
    return out
  } finally {
    conn.closeSync()
    instance.closeSync()
    await rm(dir, { recursive: true, force: true })
  }
}

export async function putGolden(s3: LocalS3, bucket: string, prefix: string): Promise<void> {
  const files = await goldenParquet()
  for (const table of GOLDEN_TABLES) await s3.put(bucket, `${prefix}${table}.parquet`, files[table])
}
