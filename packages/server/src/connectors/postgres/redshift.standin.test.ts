/**
 * Redshift stand-in: the real local PostgreSQL, reached through a role whose sessions have
 * `standard_conforming_strings = off`. Redshift always reads a backslash inside a string literal
 * as an escape character (its QUOTE_LITERAL doubles backslashes as well as quotes for that
 * reason: https://docs.aws.amazon.com/redshift/latest/dg/r_QUOTE_LITERAL.html), which is what
 * PostgreSQL does with that setting off
 * (https://www.postgresql.org/docs/current/runtime-config-compatible.html#GUC-STANDARD-CONFORMING-STRINGS).
 * So a literal such as `ESCAPE '\'` is an unterminated string there, as on Redshift.
 *
 * Redshift's documented read-only mode is BEGIN's `READ ONLY`
 * (https://docs.aws.amazon.com/redshift/latest/dg/r_BEGIN.html); it has no
 * `default_transaction_read_only` parameter, so a redshift datasource must not rely on one.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ctx, metric } from '../../../test/fixtures/query.js'
import { requireService } from '../../../test/helpers/services.js'
import { ApiError } from '../../errors.js'
import { compileMetric } from '../../query/compile.js'
import { getDialect } from '../../query/dialects/registry.js'
import { buildModel } from '../../query/model.js'
import type { ConnectorOptions, PostgresCredentials } from '../types.js'
import { PostgresConnector, type PostgresFamily } from './connector.js'

const up = await requireService('PostgreSQL', '127.0.0.1', 5432)
const suffix = randomBytes(4).toString('hex')
const schema = `strata_rs_${suffix}`
const role = `strata_rs_role_${suffix}`
const options: ConnectorOptions = { connectTimeoutMs: 1500, poolMax: 2 }
const base = { params: [], timeoutMs: 5000, maxRows: 1000 }

const NAMES = ["50%_off \\ 'x'", '50 off', 'a\\b', "it's", '100%', 'snake_case', 'wow!', 'plain']

async function admin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

const credentials = (): PostgresCredentials => ({
  name: 'rs',
  host: '127.0.0.1',
  port: 5432,
  username: role,
  password: '',
  database: 'test',
  schema,
})

describe.skipIf(!up)('postgres family on a server that reads backslashes in literals (Redshift stand-in)', () => {
  const families: PostgresFamily[] = ['postgres', 'redshift', 'cockroachdb']
  const connectors = new Map(families.map((f) => [f, new PostgresConnector(credentials(), options, f)]))

  beforeAll(async () => {
    await admin(async (c) => {
      await c.query(`create role ${role} login`)
      await c.query(`alter role ${role} set standard_conforming_strings = off`)
      await c.query(`alter role ${role} set escape_string_warning = off`)
      await c.query(`create schema ${schema}`)
      await c.query(`create table ${schema}.things (id integer primary key, name text not null)`)
      for (const [i, name] of NAMES.entries()) {
        await c.query(`insert into ${schema}.things values ($1, $2)`, [i + 1, name])
      }
      await c.query(`create sequence ${schema}.seq`)
      await c.query(`grant usage on schema ${schema} to ${role}`)
      await c.query(`grant usage on sequence ${schema}.seq to ${role}`)
      await c.query(`grant select on all tables in schema ${schema} to ${role}`)
    })
  })

  afterAll(async () => {
    for (const c of connectors.values()) await c.close()
    await admin(async (c) => {
      await c.query(`drop schema if exists ${schema} cascade`)
      await c.query(`drop role if exists ${role}`)
    })
  })

  it('the stand-in role reads backslashes in literals as escapes', async () => {
    const r = await connectors
      .get('redshift')
      ?.execute("select current_setting('standard_conforming_strings') as s", base)
    expect(r?.rows).toEqual([{ s: 'off' }])
  })

  /** The names a compiled "contains" filter on `name` returns, through the connector. */
  async function containing(family: PostgresFamily, needle: string): Promise<string[]> {
    const connector = connectors.get(family) as PostgresConnector
    const model = buildModel(await connector.introspect())
    const m = metric({ from: `${schema}.things`, dimensions: [{ name: 'name', column: 'name' }] })
    const compiled = compileMetric({
      metric: m,
      model,
      dialect: getDialect('postgres'),
      context: ctx({
        filters: [{ table: `${schema}.things`, column: 'name', value: needle, type: 'text', source: 'dashboard' }],
      }),
    })
    const result = await connector.execute(compiled.sql, { ...base, params: compiled.params })
    return result.rows.map((r) => String(Object.values(r)[0])).sort()
  }

  describe.each(families)('%s', (family) => {
    it.each([
      ["50%_off \\ 'x'", ["50%_off \\ 'x'"]],
      ['%', ["50%_off \\ 'x'", '100%']],
      ['_', ["50%_off \\ 'x'", 'snake_case']],
      ['\\', ["50%_off \\ 'x'", 'a\\b']],
      ["'", ["50%_off \\ 'x'", "it's"]],
      ['!', ['wow!']],
      ['OFF', ["50%_off \\ 'x'", '50 off']],
    ])('a contains filter on %j matches the value literally', async (needle, expected) => {
      expect(await containing(family, needle)).toEqual([...expected].sort())
    })
  })

  it('redshift: read only through BEGIN READ ONLY, never default_transaction_read_only', async () => {
    const sql =
      "select current_setting('default_transaction_read_only') as d, current_setting('transaction_read_only') as t"
    expect((await connectors.get('redshift')?.execute(sql, base))?.rows).toEqual([{ d: 'off', t: 'on' }])
    expect((await connectors.get('postgres')?.execute(sql, base))?.rows).toEqual([{ d: 'on', t: 'on' }])
    const write = await connectors
      .get('redshift')
      ?.execute(`select nextval('${schema}.seq')`, base)
      .catch((e: unknown) => e)
    expect(write).toBeInstanceOf(ApiError)
    expect((write as ApiError).message).toMatch(/read-only transaction/)
  })
})
