import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ApiError } from '../errors.js'
import type { BaseDialect } from '../query/dialects/base.js'
import { getDialect } from '../query/dialects/registry.js'
import { credentialSchema } from './credentials/schemas.js'
import type { ValidCredentials } from './credentials/validate.js'
import { capabilitiesOf, createConnector, dialectOf, type ParameterStyle, REGISTRY } from './registry.js'
import { type ConnectorOptions, DATASOURCE_TYPES, type DatasourceType } from './types.js'

const options: ConnectorOptions = { connectTimeoutMs: 1000, poolMax: 2 }
const base = { params: [], timeoutMs: 5000, maxRows: 10 }
const DRIVERS =
  /node_modules[\\/](pg|mysql2|mssql|mongodb|@google-cloud[\\/]bigquery|snowflake-sdk|@clickhouse[\\/]client|@duckdb[\\/]node-api|firebolt-sdk|@aws-sdk[\\/]client-s3|@aws-sdk[\\/]client-athena|@elastic[\\/]elasticsearch|@opensearch-project[\\/]opensearch)[\\/]/

/** Partial credentials: the connectors here are created and never (or barely) used. */
const partial = <T extends DatasourceType = DatasourceType>(credentials: object) => credentials as ValidCredentials<T>
const someCredentials = (type: DatasourceType) =>
  partial(type === 'awss3' ? { endpoint: 'file:///tmp', bucket: 'b' } : {})

/** params[0] in each style, as the dialect of a type with that style writes it. */
const FIRST_PLACEHOLDER: Record<ParameterStyle, RegExp> = {
  $n: /^\$1$/,
  '?': /^\?$/,
  '{pN:Type}': /^\{p0:String\}$/,
  '@pN': /^@p0$/,
  ':pN': /^:p0$/,
  json: /^\{"\$param":0\}$/,
  ':n': /^:1$/,
}

function loadedDrivers(): string[] {
  const cache = createRequire(import.meta.url).cache
  return [...new Set(Object.keys(cache).flatMap((k) => DRIVERS.exec(k)?.[1]?.replace(/\\/g, '/') ?? []))]
}

describe('connector registry', () => {
  it('every datasource type has a connector speaking its dialect, with its capabilities', async () => {
    for (const type of DATASOURCE_TYPES) {
      const connector = createConnector(type, someCredentials(type), options)
      expect(connector.dialect).toBe(dialectOf(type))
      await connector.close() // never used: nothing to close, nothing loaded
    }
  })

  it('awss3 is S3 with an http(s) endpoint or none (AWS), a local mirror with file:///: never refused', async () => {
    for (const endpoint of [
      undefined,
      'https://s3.eu-west-1.amazonaws.com',
      'http://127.0.0.1:9000',
      'file:///srv/m',
    ]) {
      const credentials = {
        name: 's3',
        bucket: 'b',
        region: 'eu-west-1',
        accessKeyId: 'a',
        secretAccessKey: 's',
        endpoint,
      }
      const connector = createConnector('awss3', credentials, options)
      expect(connector.dialect).toBe('duckdb')
      await connector.close()
    }
  })

  it('drivers load lazily: creating connectors loads none; the first call loads only its own', async () => {
    for (const type of DATASOURCE_TYPES) createConnector(type, someCredentials(type), options)
    expect(loadedDrivers()).toEqual([])
    const dir = await mkdtemp(path.join(tmpdir(), 'strata-registry-'))
    try {
      await writeFile(path.join(dir, 'a.csv'), 'x\n1\n')
      const csv = createConnector('csv', { name: 'c', path: 'a.csv' }, { ...options, filesRoot: dir })
      await csv.test()
      await csv.close()
      // DuckDB loads in the engine process, never in the server's; csv never loads the AWS SDK
      expect(loadedDrivers()).toEqual([])
      // port 1 of this machine refuses at once: loading the S3 connector is what is checked
      const local = { bucket: 'b', region: 'eu-west-1', endpoint: 'http://127.0.0.1:1' }
      const s3 = createConnector('awss3', partial<'awss3'>(local), { ...options, cacheDir: dir })
      await s3.databases().catch(() => undefined)
      await s3.close()
      expect(loadedDrivers()).toEqual(['@aws-sdk/client-s3'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('a connector that fails to construct rejects on use and closes cleanly', async () => {
    const awss3 = createConnector(
      'awss3',
      partial<'awss3'>({ bucket: '..', endpoint: 'file:///nonexistent-strata-dir' }),
      options,
    )
    const error = await awss3.test().catch((e: unknown) => e)
    expect((error as ApiError).code).toBe('DATASOURCE_CONNECTION_ERROR')
    await expect(awss3.close()).resolves.toBeUndefined()
  })

  it('a closed connector rejects every call with DATASOURCE_CONNECTION_ERROR and never loads or opens anything again', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'strata-registry-'))
    try {
      await writeFile(path.join(dir, 'a.csv'), 'x\n1\n')
      const unused = createConnector('csv', { name: 'c', path: 'a.csv' }, { ...options, filesRoot: dir })
      await unused.close()
      const used = createConnector('csv', { name: 'c', path: 'a.csv' }, { ...options, filesRoot: dir })
      await used.test()
      await used.close()
      for (const connector of [unused, used]) {
        for (const call of [
          () => connector.test(),
          () => connector.execute('select 1', base),
          () => connector.databases(),
        ]) {
          const error = (await call().catch((e: unknown) => e)) as ApiError
          expect([error.code, error.message]).toEqual([
            'DATASOURCE_CONNECTION_ERROR',
            'Could not connect to the datasource: the connector is closed',
          ])
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('one row per type: the credentials schema the API validates with, its dialect, capabilities and loader', () => {
    expect(Object.keys(REGISTRY).sort()).toEqual([...DATASOURCE_TYPES].sort())
    for (const type of DATASOURCE_TYPES) {
      expect(credentialSchema(type), type).toBe(REGISTRY[type].credentials)
      expect(REGISTRY[type].credentials.type, type).toBe('object')
      expect(typeof REGISTRY[type].load, type).toBe('function')
    }
  })

  it('the capabilities agree with the dialect: its placeholders have the parameter style, FULL JOIN exists where fullJoin says', () => {
    for (const type of DATASOURCE_TYPES) {
      const live = REGISTRY[type]
      const dialect = getDialect(live.dialect) as BaseDialect
      const { parameterStyle, fullJoin } = live.capabilities
      expect(dialect.placeholder(0, 'text'), `${type}: ${parameterStyle}`).toMatch(FIRST_PLACEHOLDER[parameterStyle])
      if (fullJoin) expect(dialect.joinKeyword('FULL'), type).toMatch(/^FULL/)
      else expect(() => dialect.joinKeyword('FULL'), type).toThrow(/FULL JOIN/)
    }
  })

  it("each type's flags, with the reason each holds (behaviour checked where it runs: capabilities.integration.test.ts)", () => {
    type Flags = [sessionTimeZone: boolean, fullJoin: boolean, tenancyUnit: string]
    const EXPECTED: Record<DatasourceType, Flags> = {
      postgres: [true, true, 'database'], // set_config('TimeZone')
      redshift: [true, true, 'database'], // Redshift documents the timezone parameter
      cockroachdb: [true, true, 'database'], // CockroachDB's TimeZone session variable
      mysql: [true, false, 'database'], // SET SESSION time_zone; MySQL has no FULL JOIN
      singlestore: [false, false, 'database'], // time_zone "does nothing" on SingleStore; mysql dialect: no FULL JOIN
      clickhouse: [true, true, 'database'], // session_timezone (23.6+)
      mssql: [false, true, 'database'], // no session time zone in SQL Server
      csv: [true, true, 'schema'], // DuckDB's TimeZone setting; one database, schema main
      awss3: [true, true, 'schema'],
      snowflake: [true, true, 'database'], // ALTER SESSION SET TIMEZONE
      bigquery: [true, true, 'dataset'], // the job's time_zone connection property
      databricks: [false, true, 'schema'], // the Statement Execution API keeps no session
      elasticsearch: [true, false, 'index'], // the zone is an argument of each date aggregation; no joins
      opensearch: [true, false, 'index'],
      mongodb: [true, false, 'database'], // the zone is an argument of $dateTrunc/$dateToString; $lookup has no FULL
      trino: [true, true, 'schema'], // X-Trino-Time-Zone
      athena: [false, true, 'database'], // no per-query time zone
      firebolt: [true, true, 'database'], // the time_zone setting on every statement
    }
    for (const type of DATASOURCE_TYPES) {
      const { sessionTimeZone, fullJoin, tenancyUnit } = capabilitiesOf(type)
      expect([sessionTimeZone, fullJoin, tenancyUnit], type).toEqual(EXPECTED[type])
    }
  })

  it('params.timezone is the session time zone for exactly the types the API names', () => {
    const named = DATASOURCE_TYPES.filter((type) => capabilitiesOf(type).timezoneParam)
    // The API's list: clickhouse, trino, redshift, cockroachdb, postgres, mssql.
    expect(named.sort()).toEqual(['clickhouse', 'cockroachdb', 'mssql', 'postgres', 'redshift', 'trino'])
  })
})
