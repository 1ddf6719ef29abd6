import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../errors.js'
import { createConnector, dialectOf } from './registry.js'
import { type ConnectorOptions, DATASOURCE_TYPES, type DatasourceType } from './types.js'

const options: ConnectorOptions = { connectTimeoutMs: 1000, poolMax: 2 }
const UNSUPPORTED: DatasourceType[] = [
  'snowflake',
  'bigquery',
  'databricks',
  'elasticsearch',
  'opensearch',
  'mongodb',
  'trino',
  'athena',
  'firebolt',
]
const DRIVERS = /node_modules[\\/](pg|mysql2|mssql|@clickhouse[\\/]client|@duckdb[\\/]node-api)[\\/]/

function loadedDrivers(): string[] {
  const cache = createRequire(import.meta.url).cache
  return [...new Set(Object.keys(cache).flatMap((k) => DRIVERS.exec(k)?.[1]?.replace(/\\/g, '/') ?? []))]
}

function rejection(fn: () => unknown): ApiError {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError)
    return err as ApiError
  }
  throw new Error('expected a throw')
}

describe('connector registry', () => {
  it('every datasource type either has a connector speaking its dialect or is DATASOURCE_NOT_SUPPORTED', async () => {
    for (const type of DATASOURCE_TYPES) {
      const credentials = type === 'awss3' ? { endpoint: 'file:///tmp', bucket: 'b' } : {}
      if (UNSUPPORTED.includes(type)) {
        expect(dialectOf(type)).toBeUndefined()
        const e = rejection(() => createConnector(type, credentials, options))
        expect([e.code, e.status]).toEqual(['DATASOURCE_NOT_SUPPORTED', 400])
        expect(e.message).toMatch(new RegExp(`^${type} datasources are not supported yet`))
      } else {
        const connector = createConnector(type, credentials, options)
        expect(connector.dialect).toBe(dialectOf(type))
        await connector.close() // never used: nothing to close, nothing loaded
      }
    }
  })

  it('awss3 works only with a local file:/// endpoint for now', () => {
    for (const endpoint of [undefined, 'https://s3.eu-west-1.amazonaws.com', 'http://127.0.0.1:9000']) {
      const e = rejection(() =>
        createConnector(
          'awss3',
          { bucket: 'b', region: 'r', accessKeyId: 'a', secretAccessKey: 's', endpoint },
          options,
        ),
      )
      expect(e.code).toBe('DATASOURCE_NOT_SUPPORTED')
      expect(e.message).toMatch(/^awss3 datasources are not supported yet/)
    }
    expect(createConnector('awss3', { bucket: 'b', endpoint: 'file:///srv/mirror' }, options).dialect).toBe('duckdb')
  })

  it('drivers load lazily: creating connectors loads none; the first call loads only its own', async () => {
    for (const type of DATASOURCE_TYPES) {
      if (UNSUPPORTED.includes(type)) continue
      createConnector(type, type === 'awss3' ? { endpoint: 'file:///tmp', bucket: 'b' } : {}, options)
    }
    expect(loadedDrivers()).toEqual([])
    const dir = await mkdtemp(path.join(tmpdir(), 'strata-registry-'))
    try {
      await writeFile(path.join(dir, 'a.csv'), 'x\n1\n')
      const csv = createConnector('csv', { name: 'c', path: 'a.csv' }, { ...options, filesRoot: dir })
      await csv.test()
      await csv.close()
      expect(loadedDrivers()).toEqual(['@duckdb/node-api'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('a connector that fails to construct rejects on use and closes cleanly', async () => {
    const awss3 = createConnector('awss3', { bucket: '..', endpoint: 'file:///nonexistent-strata-dir' }, options)
    const error = await awss3.test().catch((e: unknown) => e)
    expect((error as ApiError).code).toBe('DATASOURCE_CONNECTION_ERROR')
    await expect(awss3.close()).resolves.toBeUndefined()
  })
})
