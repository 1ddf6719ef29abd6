import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../../src/errors.js'
import { PRIMARY_ORGANIZATION_ID } from '../../src/services/admin/admin-accounts.js'
import { writeDemoDataset } from '../../src/services/demo/dataset.js'
import { caught } from '../fixtures/net.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'
import { expectError } from '../helpers/expect-error.js'
import { setupFilesAnalytics } from '../reliability/live.js'

/**
 * Issue 24 item 1 (regression): one JSON file nested tens of thousands of levels deep (~60 KB),
 * uploaded for a csv datasource, crashed the whole server (SIGSEGV in DuckDB's JSON reader) or
 * grew it to 23 GB. Now (1) such a file is refused before any engine reads it: at upload and when
 * a datasource opens a file placed in FILES_ROOT; (2) DuckDB runs in a supervised engine process:
 * killing it mid-query fails that query with a clear error, the server keeps serving, and the
 * same datasource answers again from a new engine process.
 */
const DEEP = `${'['.repeat(30_000)}${']'.repeat(30_000)}`

describe('the engine process and the file limits (csv over DuckDB)', () => {
  let t: TestContext
  let creds: Awaited<ReturnType<typeof bootstrap>>
  let base: string

  beforeAll(async () => {
    // no result cache: each metric query reaches the engine
    t = await createTestApp('sqlite', { RATE_LIMIT: '0', RESULT_CACHE_TTL_MS: '0' })
    creds = await bootstrap(t.app)
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`
  })
  afterAll(() => t?.close())

  const upload = (url: string, payload: string | Buffer) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v2/datasource/files/${url}`,
      payload,
      headers: { ...bearer(creds.serviceToken), 'content-type': 'application/octet-stream' },
    })
  const createCsv = (name: string, path: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v2/datasource',
      payload: { datasourceType: 'csv', credentials: { name, path } },
      headers: bearer(creds.serviceToken),
    })

  it('a JSON file nested 30,000 levels deep is refused at upload: 400 naming it, nothing stored', async () => {
    const res = await upload('deep/deep.json', DEEP)
    expectError(
      res,
      400,
      'INVALID_REQUEST_BODY',
      /deep\/deep\.json is refused: JSON arrays and objects nest deeper than 64/,
    )
    expect(res.json().error.details).toMatchObject({ file: 'deep/deep.json' })
    expect(readdirSync(join(t.config.filesRoot, 'deep'))).toEqual([])
    // a CSV line past the limit too; an ordinary JSON file passes
    expectError(
      await upload('deep/wide.csv', `a\n${'x'.repeat(1024 * 1024 + 1)}\n`),
      400,
      'INVALID_REQUEST_BODY',
      /a line is longer than/,
    )
    expect((await upload('deep/fine.json', '[{"a":[1,{"b":"]]]]"}]}]')).statusCode).toBe(200)
  })

  it('a deep JSON file placed in FILES_ROOT: creating a csv datasource over it (folder or file) is 400 naming it', async () => {
    mkdirSync(join(t.config.filesRoot, 'placed'))
    writeFileSync(join(t.config.filesRoot, 'placed', 'ok.csv'), 'id\n1\n')
    writeFileSync(join(t.config.filesRoot, 'placed', 'deep.json'), DEEP)
    for (const path of ['placed', 'placed/deep.json']) {
      const res = await createCsv('placed', path)
      expectError(
        res,
        400,
        'INVALID_REQUEST_BODY',
        /placed\/deep\.json is refused: JSON arrays and objects nest deeper/,
      )
    }
    // the server is still here, and DuckDB never saw the file
    expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200)
  })

  it('the engine process killed mid-query: that query fails clearly, the server serves on, the datasource answers again', async () => {
    const dataset = mkdtempSync(join(tmpdir(), 'strata-engine-'))
    try {
      writeDemoDataset(dataset, { customers: 20, orders: 300 })
      for (const name of ['customers.csv', 'orders.csv']) {
        expect((await upload(`files/${name}`, readFileSync(join(dataset, name)))).statusCode).toBe(200)
      }
    } finally {
      rmSync(dataset, { recursive: true, force: true })
    }
    const { embedId } = await setupFilesAnalytics(base, creds)
    const query = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/data-app/query',
        payload: { embedId, metricId: 'orders', clientId: 'acme', dashboardFilter: { period: 'All time' } },
        headers: bearer(creds.dataAppKey),
      })
    const before = await query()
    expect(before.statusCode, before.body).toBe(200)
    const { engine, datasources } = t.app.services
    const pid = engine.pid as number
    const generation = engine.generation
    expect(pid).toBeGreaterThan(0)

    // a long query on the same datasource, in flight when the engine process dies
    const datasource = await datasources.byName(PRIMARY_ORGANIZATION_ID, 'files')
    if (!datasource) throw new Error('no datasource')
    const connector = await datasources.connector(datasource)
    const slow = caught(
      connector.execute('select count(distinct i::varchar) as n from range(200000000) t(i)', {
        params: [],
        timeoutMs: 60_000,
        maxRows: 10,
      }),
    )
    await new Promise((resolve) => setTimeout(resolve, 300))
    process.kill(pid, 'SIGKILL')
    const { error, ms } = await slow
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).code).toBe('DATASOURCE_CONNECTION_ERROR')
    expect((error as ApiError).message).toMatch(
      /query engine process stopped \(it was killed by SIGKILL while this ran\)/,
    )
    expect(ms).toBeLessThan(5_000)

    // the server answers meanwhile: liveness, and a route of the metadata store
    expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200)
    const listed = await t.app.inject({ method: 'GET', url: '/api/v2/datasource', headers: bearer(creds.serviceToken) })
    expect(listed.statusCode, listed.body).toBe(200)

    // the same datasource answers again, from a new engine process
    const after = await query()
    expect(after.statusCode, after.body).toBe(200)
    expect(after.json().data).toEqual(before.json().data)
    expect(engine.generation).toBe(generation + 1)
    expect(engine.pid).not.toBe(pid)
  })

  // Item 15: the demo's warm-up (a background introspect started by the seed) could open a DuckDB
  // instance after app.close(), in the test worker, where it lived until the worker exited.
  it('after close(), a call that began before it opens nothing (no pool, no engine process)', async () => {
    const { datasources, engine } = t.app.services
    const datasource = await datasources.byName(PRIMARY_ORGANIZATION_ID, 'files')
    if (!datasource) throw new Error('no datasource')
    await datasources.close()
    await engine.close()
    const { error } = await caught(datasources.connector(datasource))
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).code).toBe('SERVICE_UNAVAILABLE')
    expect(engine.pid).toBeUndefined()
  })
})
