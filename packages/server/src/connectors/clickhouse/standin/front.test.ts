/**
 * The chdb front answers as ClickHouse's HTTP server does where our tests lean on it: one
 * statement per request, a request's settings and database for that request only, exceptions
 * with the server's status codes and `X-ClickHouse-Exception-Code`, parameters bound by the
 * engine from `param_*` exactly as sent, its own users. Skipped loudly without chdb (and fails
 * under CI=true).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChdbFront, requireChdb, startChdbFront } from './process.js'

const hasChdb = requireChdb('the chdb front')

describe.skipIf(!hasChdb)('chdb front (ClickHouse HTTP interface over chdb)', () => {
  let front: ChdbFront
  const post = (query: string, params: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    fetch(`http://127.0.0.1:${front.port}/?${new URLSearchParams(params)}`, { method: 'POST', body: query, headers })

  beforeAll(async () => {
    front = await startChdbFront({ users: { default: '', reader: 'reader-pw' } })
  })
  afterAll(async () => {
    await front?.stop()
  })

  it('answers /ping', async () => {
    const res = await fetch(`http://127.0.0.1:${front.port}/ping`)
    expect([res.status, await res.text()]).toEqual([200, 'Ok.\n'])
  })

  it("applies a request's settings and database to that request only", async () => {
    await front.admin('CREATE DATABASE IF NOT EXISTS front_scope')
    const probe = "SELECT timezone() AS tz, currentDatabase() AS db, getSetting('readonly') AS ro FORMAT JSONEachRow"
    const before = await (await post(probe)).json()
    expect(before).toEqual({ tz: 'UTC', db: 'default', ro: 0 }) // process.ts starts the front with TZ=UTC
    const scoped = await post(probe, { session_timezone: 'Asia/Tokyo', database: 'front_scope', readonly: '2' })
    expect(await scoped.json()).toEqual({ tz: 'Asia/Tokyo', db: 'front_scope', ro: 2 })
    expect(await (await post(probe)).json()).toEqual(before)
    // readonly = 2 refuses writes, and is gone afterwards
    const write = await post('CREATE TABLE front_scope.t (a Int8) ENGINE = Memory', { readonly: '2' })
    expect([write.status, write.headers.get('x-clickhouse-exception-code')]).toEqual([500, '164'])
    expect((await post('CREATE TABLE front_scope.t (a Int8) ENGINE = Memory')).status).toBe(200)
  })

  it('refuses more than one statement, as the HTTP server does (the engine parses it)', async () => {
    await front.admin('CREATE TABLE IF NOT EXISTS default.kept (a Int8) ENGINE = Memory')
    const res = await post('SELECT 1; DROP TABLE default.kept')
    expect([res.status, res.headers.get('x-clickhouse-exception-code')]).toEqual([400, '62'])
    expect(await res.text()).toMatch(
      /^Code: 62\. DB::Exception: Syntax error \(Multi-statements are not allowed\).*\(SYNTAX_ERROR\) \(version 2\d\./s,
    )
    expect(await front.admin("SELECT count() FROM system.tables WHERE database = 'default' AND name = 'kept'")).toBe(
      '1\n',
    )
  })

  it('answers exceptions with their status codes and X-ClickHouse-Exception-Code', async () => {
    const unknown = await post('SELECT * FROM default.nope')
    expect([unknown.status, unknown.headers.get('x-clickhouse-exception-code')]).toEqual([404, '60'])
    const database = await post('SELECT 1', { database: 'nope' })
    expect([database.status, database.headers.get('x-clickhouse-exception-code')]).toEqual([404, '81'])
    const timeout = await post('SELECT count() FROM system.numbers', {
      max_execution_time: '1',
      timeout_overflow_mode: 'throw',
    })
    expect([timeout.status, timeout.headers.get('x-clickhouse-exception-code')]).toEqual([408, '159'])
  })

  it('binds param_* values as sent (the Escaped format), never as SQL', async () => {
    const res = await post('SELECT {p0:String} AS s, {p1:Array(String)} AS a FORMAT JSONEachRow', {
      param_p0: "x\\'; DROP TABLE default.kept; --\\tend",
      param_p1: "['a\\'b','c']",
    })
    expect(await res.json()).toEqual({ s: "x'; DROP TABLE default.kept; --\tend", a: ["a'b", 'c'] })
  })

  it('lets in its own users only, by Basic auth or X-ClickHouse-User/Key', async () => {
    const basic = (user: string, password: string) => ({
      Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
    })
    expect((await post('SELECT 1', {}, basic('reader', 'reader-pw'))).status).toBe(200)
    expect(
      (await post('SELECT 1', {}, { 'X-ClickHouse-User': 'reader', 'X-ClickHouse-Key': 'reader-pw' })).status,
    ).toBe(200)
    const wrong = await post('SELECT 1', {}, basic('reader', 'nope'))
    expect([wrong.status, wrong.headers.get('x-clickhouse-exception-code')]).toEqual([403, '516'])
    expect(await wrong.text()).toMatch(/reader: Authentication failed/)
  })
})
