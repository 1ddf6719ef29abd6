/**
 * The registry's capability flags against what each connector does, on the engines that run
 * here: PostgreSQL (postgres, redshift, cockroachdb rows), MariaDB (mysql; and singlestore,
 * whose connector path it serves as a stand-in: SingleStore documents that setting `time_zone`
 * does nothing, https://docs.singlestore.com/db/v9.1/user-and-cluster-administration/maintain-your-cluster/setting-the-time-zone/time-zone-engine-variables/,
 * so its connector sets none) and DuckDB (csv). The other types' flags are a table in
 * registry.test.ts, each with its reason.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requireService } from '../../test/helpers/services.js'
import { capabilitiesOf, createConnector } from './registry.js'
import type { Connector, ConnectorOptions, DatasourceType } from './types.js'

const pgUp = await requireService('PostgreSQL', '127.0.0.1', 5432)
const mariaUp = await requireService('MariaDB', '127.0.0.1', 3306)
const options: ConnectorOptions = { connectTimeoutMs: 1500, poolMax: 2 }
const base = { params: [], timeoutMs: 5000, maxRows: 10 }

const POSTGRES = {
  host: '127.0.0.1',
  port: 5432,
  username: 'postgres',
  password: '',
  database: 'test',
  schema: 'public',
}
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'test' }

/** The hour of the instant 2024-01-01T00:00:00Z as the session renders it. */
const HOUR_PROBE = {
  pg: "select extract(hour from timestamptz '2024-01-01 00:00:00+00')::int as h",
  mysql: 'select hour(from_unixtime(1704067200)) as h',
  duckdb: "select hour(timestamptz '2024-01-01 00:00:00+00') as h",
} as const
const FULL_JOIN = 'select x.a as xa, y.a as ya from (select 1 as a) x full outer join (select 2 as a) y on x.a = y.a'

interface Case {
  readonly type: DatasourceType
  readonly up: boolean
  readonly probe: keyof typeof HOUR_PROBE
  readonly credentials: () => object
  /** The database `databases()` must list for the tenancy unit. */
  readonly unit: string
}

let dir = ''
const CASES: Case[] = [
  { type: 'postgres', up: pgUp, probe: 'pg', credentials: () => ({ name: 'p', ...POSTGRES }), unit: 'test' },
  { type: 'redshift', up: pgUp, probe: 'pg', credentials: () => ({ name: 'r', ...POSTGRES }), unit: 'test' },
  { type: 'cockroachdb', up: pgUp, probe: 'pg', credentials: () => ({ name: 'c', ...POSTGRES }), unit: 'test' },
  { type: 'mysql', up: mariaUp, probe: 'mysql', credentials: () => ({ name: 'm', ...MARIADB }), unit: 'test' },
  { type: 'singlestore', up: mariaUp, probe: 'mysql', credentials: () => ({ name: 's', ...MARIADB }), unit: 'test' },
  { type: 'csv', up: true, probe: 'duckdb', credentials: () => ({ name: 'f', path: 'a.csv' }), unit: 'main' },
]

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'strata-capabilities-'))
  await writeFile(path.join(dir, 'a.csv'), 'x\n1\n')
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe.each(CASES)('capabilities of $type, by behaviour', (c) => {
  let connector: Connector
  beforeAll(() => {
    connector = createConnector(c.type, c.credentials() as never, { ...options, filesRoot: dir })
  })
  afterAll(async () => {
    await connector?.close()
  })
  const flags = capabilitiesOf(c.type)

  it.skipIf(!c.up)(`sessionTimeZone: ${flags.sessionTimeZone}`, async () => {
    const hour = async (timezone: string) =>
      Number((await connector.execute(HOUR_PROBE[c.probe], { ...base, timezone })).rows[0]?.h)
    const tokyo = await hour('Asia/Tokyo')
    const newYork = await hour('America/New_York')
    if (flags.sessionTimeZone) expect([tokyo, newYork]).toEqual([9, 19])
    else expect(tokyo).toBe(newYork) // the zone is not applied
  })

  it.skipIf(!c.up)(`fullJoin: ${flags.fullJoin}`, async () => {
    const run = connector.execute(FULL_JOIN, base)
    if (flags.fullJoin) expect((await run).rows).toHaveLength(2)
    else await expect(run).rejects.toMatchObject({ code: 'QUERY_ERROR' })
  })

  it.skipIf(!c.up)(`tenancyUnit: ${flags.tenancyUnit}`, async () => {
    expect(await connector.databases()).toContain(c.unit)
    const where =
      flags.tenancyUnit === 'schema'
        ? 'select current_schema() as u'
        : c.probe === 'pg'
          ? 'select current_database() as u'
          : 'select database() as u'
    expect((await connector.execute(where, { ...base, database: c.unit })).rows[0]?.u).toBe(c.unit)
  })
})
