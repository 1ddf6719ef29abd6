import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { writeDemoDataset } from '../../src/services/demo/dataset.js'
import { createTestApp, storeKinds, type TestContext } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'
import { expectError } from '../helpers/expect-error.js'
import { FILE_TENANTS, setupFilesAnalytics } from '../reliability/live.js'

/**
 * docs/operations.md#files-of-csv-datasources: csv files live under FILES_ROOT, stored by
 * PUT /api/v2/datasource/files/:datasourceName/:fileName; a csv path is relative to FILES_ROOT
 * and one that resolves outside it is 400 INVALID_REQUEST_BODY, on create and on update; no
 * file:/// endpoint outside it. Regression: a csv datasource read any path (a planted cloud
 * credentials file, /proc/self/cwd/package.json, /etc), and awss3 `file:///…` did the same.
 */
const LIMIT = 64 * 1024

/** Sends `text` on a new connection as it is; resolves with everything the server answered. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text))
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk.toString()
    })
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
  })
}
const SECRET = 'AKIA-planted-secret-key'

describe.each(storeKinds)('datasource files under FILES_ROOT on %s', (store) => {
  let t: TestContext
  let creds: Awaited<ReturnType<typeof bootstrap>>
  /** a directory outside FILES_ROOT, holding what must never come back */
  let away: string

  let port: number | undefined

  // one app for the file (datasource names differ per test); FILES_ROOT is emptied before each test
  beforeAll(async () => {
    t = await createTestApp(store, { FILE_UPLOAD_LIMIT: String(LIMIT), RATE_LIMIT: '0' })
    creds = await bootstrap(t.app)
    away = mkdtempSync(join(tmpdir(), 'strata-away-'))
    writeFileSync(join(away, 'credentials.json'), JSON.stringify([{ aws_secret_access_key: SECRET }]))
    writeFileSync(join(away, 'secret.csv'), `key\n${SECRET}\n`)
  })
  afterAll(async () => {
    await t?.close()
    if (away) rmSync(away, { recursive: true, force: true })
  })
  beforeEach(() => {
    for (const entry of readdirSync(t.config.filesRoot)) rmSync(join(t.config.filesRoot, entry), { recursive: true })
  })
  /** The app's port on 127.0.0.1, for what app.inject cannot send (raw paths, a cut-off body). */
  const listening = async (): Promise<number> => {
    if (port === undefined) {
      await t.app.listen({ port: 0, host: '127.0.0.1' })
      port = (t.app.server.address() as { port: number }).port
    }
    return port
  }

  const upload = (url: string, payload: string | Buffer | Readable, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v2/datasource/files/${url}`,
      payload,
      headers: { ...bearer(creds.serviceToken), 'content-type': 'text/csv', ...headers },
    })
  const datasource = (method: 'POST' | 'PUT', credentials: object, datasourceType = 'csv') =>
    t.app.inject({
      method,
      url: '/api/v2/datasource',
      payload: { datasourceType, credentials },
      headers: bearer(creds.serviceToken),
    })
  /** Everything under FILES_ROOT, hidden files (an upload's temporary file) included. */
  const stored = () => readdirSync(t.config.filesRoot, { recursive: true }).map(String).sort()

  describe('PUT /api/v2/datasource/files/:datasourceName/:fileName', () => {
    it('stores the raw body as <datasourceName>/<fileName>, replacing one of that name, nothing else left', async () => {
      const res = await upload('sales/orders.csv', 'id,amount\n1,10\n')
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toEqual({ data: { path: 'sales/orders.csv', size: 15 }, error: null })
      const again = await upload('sales/orders.csv', 'id,amount\n1,10\n2,20\n', { 'content-type': 'application/json' })
      expect(again.json()).toEqual({ data: { path: 'sales/orders.csv', size: 20 }, error: null })
      expect(readFileSync(join(t.config.filesRoot, 'sales/orders.csv'), 'utf8')).toBe('id,amount\n1,10\n2,20\n')
      for (const name of ['events.json', 'Facts_2024.v2.parquet', 'UPPER.CSV']) {
        expect((await upload(`sales/${name}`, 'x\n', { 'content-type': 'application/octet-stream' })).statusCode).toBe(
          200,
        )
      }
      expect(stored()).toEqual(
        ['sales', 'sales/Facts_2024.v2.parquet', 'sales/UPPER.CSV', 'sales/events.json', 'sales/orders.csv'].sort(),
      )
    })

    it.each([
      ['no extension', 'sales/orders'],
      ['another extension', 'sales/orders.txt'],
      ['an extension after the allowed one', 'sales/orders.csv.sh'],
      ['a hidden file', 'sales/.orders.csv'],
      ['".." in the name', 'sales/a..csv'],
      ['an encoded separator', 'sales/..%2F..%2Fescape.csv'],
      ['an encoded backslash', 'sales/..%5Cescape.csv'],
      ['a NUL byte', 'sales/a%00.csv'],
      ['a hidden folder', '.ssh/escape.csv'],
      ['a space', 'sales/my%20orders.csv'],
    ])('refuses %s (%s) with 400 and writes nothing', async (_what, url) => {
      const res = await upload(url, 'x\n1\n')
      expect([res.statusCode, res.json().error?.code], res.body).toEqual([400, 'INVALID_REQUEST_BODY'])
      expect(stored()).toEqual([])
      expect(readdirSync(join(t.config.filesRoot, '..')).some((f) => f.startsWith('escape'))).toBe(false)
    })

    it('refuses ".." as a name when a client sends it as is (no URL normalisation on the way)', async () => {
      const port = await listening()
      for (const path of ['sales/..', '../escape.csv', '%2E%2E/escape.csv', '..%2Fescape.csv/x.csv']) {
        const answer = await rawRequest(
          port,
          `PUT /api/v2/datasource/files/${path} HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\n` +
            `Authorization: Bearer ${creds.serviceToken}\r\nContent-Length: 4\r\nConnection: close\r\n\r\nx\n1\n`,
        )
        expect(answer, path).toMatch(/^HTTP\/1\.1 400 [\s\S]*"code":"INVALID_REQUEST_BODY"/)
      }
      expect(stored()).toEqual([])
      expect(readdirSync(join(t.config.filesRoot, '..')).some((f) => f.startsWith('escape'))).toBe(false)
    })

    it('refuses a folder that is a link leading out of FILES_ROOT', async () => {
      symlinkSync(away, join(t.config.filesRoot, 'linked'))
      expectError(await upload('linked/new.csv', 'x\n'), 400, 'INVALID_REQUEST_BODY', /datasourceName/)
      expect(readdirSync(away).sort()).toEqual(['credentials.json', 'secret.csv'])
    })

    it('413 past FILE_UPLOAD_LIMIT: as declared (nothing read) or as streamed, nothing left behind', async () => {
      const big = Buffer.alloc(LIMIT + 1, 'a')
      const declared = await upload('sales/big.csv', big)
      expectError(declared, 413, 'PAYLOAD_TOO_LARGE', /FILE_UPLOAD_LIMIT/)
      // a chunked body (no Content-Length): refused once the limit is passed
      const chunks = Readable.from([Buffer.alloc(LIMIT / 2, 'a'), Buffer.alloc(LIMIT / 2, 'a'), Buffer.from('a')])
      const streamed = await upload('sales/big.csv', chunks)
      expectError(streamed, 413, 'PAYLOAD_TOO_LARGE')
      expect(stored().filter((f) => f !== 'sales')).toEqual([])
      // exactly the limit is fine
      expect((await upload('sales/big.csv', Buffer.alloc(LIMIT, 'a'))).statusCode).toBe(200)
    })

    it('an upload cut off mid-body leaves nothing half-written', async () => {
      const socket = connect(await listening(), '127.0.0.1')
      await new Promise((resolve) => socket.once('connect', resolve))
      socket.write(
        'PUT /api/v2/datasource/files/sales/cut.csv HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\n' +
          `Authorization: Bearer ${creds.serviceToken}\r\nContent-Length: ${LIMIT}\r\n\r\n`,
      )
      socket.write('a'.repeat(1000))
      // the server is writing the temporary file …
      await vi.waitFor(() => expect(stored().some((f) => f.startsWith('sales/.upload-'))).toBe(true))
      socket.destroy()
      // … and removes it when the client goes away
      await vi.waitFor(() => expect(stored()).toEqual(['sales']))
    })

    it('refuses a missing or wrong service token with 401, and an empty body with 400', async () => {
      expectError(await upload('sales/a.csv', 'x\n', { authorization: 'Bearer nope' }), 401, 'AUTHENTICATION_ERROR')
      const anonymous = await t.app.inject({ method: 'PUT', url: '/api/v2/datasource/files/sales/a.csv', payload: 'x' })
      expectError(anonymous, 401, 'AUTHENTICATION_ERROR')
      expectError(await upload('sales/a.csv', ''), 400, 'INVALID_REQUEST_BODY', /empty/)
      expect(stored().filter((f) => f !== 'sales')).toEqual([])
    })

    it('the JSON routes keep their own body rules (the raw body is only for this route)', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/datasource',
        payload: 'name,path',
        headers: { ...bearer(creds.serviceToken), 'content-type': 'text/csv' },
      })
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE')
    })
  })

  it('upload, then create a csv datasource on the folder, then query: the tenant gets its rows', async () => {
    const dataset = mkdtempSync(join(tmpdir(), 'strata-dataset-'))
    try {
      writeDemoDataset(dataset, { customers: 20, orders: 300 })
      for (const name of ['customers.csv', 'orders.csv']) {
        const res = await upload(`files/${name}`, readFileSync(join(dataset, name)))
        expect(res.statusCode, res.body).toBe(200)
      }
      const [header, ...rows] = readFileSync(join(dataset, 'orders.csv'), 'utf8').trim().split('\n')
      const tenantAt = (header as string).split(',').indexOf('tenant')
      const base = `http://127.0.0.1:${await listening()}`
      const { embedId } = await setupFilesAnalytics(base, creds) // csv datasource `files`, path "files"
      for (const tenant of FILE_TENANTS) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v2/data-app/query',
          payload: { embedId, metricId: 'orders', clientId: tenant, dashboardFilter: { period: 'All time' } },
          headers: bearer(creds.dataAppKey),
        })
        expect(res.statusCode, res.body).toBe(200)
        const expected = rows.filter((r) => r.split(',')[tenantAt] === tenant).length
        expect(Number(res.json().data[0].orders)).toBe(expected)
      }
    } finally {
      rmSync(dataset, { recursive: true, force: true })
    }
  })

  describe('a csv path must stay under FILES_ROOT (create and update)', () => {
    beforeEach(() => {
      mkdirSync(join(t.config.filesRoot, 'sales'))
      writeFileSync(join(t.config.filesRoot, 'sales', 'orders.csv'), 'id\n1\n')
      symlinkSync(join(away, 'secret.csv'), join(t.config.filesRoot, 'sales', 'link.csv'))
      symlinkSync(join(away, 'credentials.json'), join(t.config.filesRoot, 'creds.json'))
      symlinkSync(away, join(t.config.filesRoot, 'linkdir'))
    })

    const HOSTILE = [
      ['absolute: a planted credentials file', () => join(away, 'credentials.json')],
      ['absolute: /proc/self/cwd/package.json', () => '/proc/self/cwd/package.json'],
      ['absolute: /etc/passwd', () => '/etc/passwd'],
      ['absolute: /etc', () => '/etc'],
      ['../', () => `../${away.split('/').pop()}/secret.csv`],
      ['.. in the middle', () => 'sales/../../etc/passwd'],
      ['..\\', () => '..\\..\\etc\\passwd'],
      ['percent-encoded ..', () => '%2e%2e/%2e%2e/etc/passwd'],
      ['a glob reaching out', () => '../*.json'],
      ['a glob inside', () => 'sales/*.csv'],
      ['a NUL byte', () => 'sales/orders.csv\u0000/../../../etc/passwd'],
      ['a Windows drive', () => 'C:/Windows/win.ini'],
      ['a file link inside FILES_ROOT leading out', () => 'sales/link.csv'],
      ['a credentials link at the top of FILES_ROOT', () => 'creds.json'],
      ['a directory link leading out', () => 'linkdir'],
      ['a file through a directory link', () => 'linkdir/secret.csv'],
      ['a hidden file', () => 'sales/.env'],
    ] as const

    it.each(HOSTILE)('%s → 400 INVALID_REQUEST_BODY on create and on update', async (_what, where) => {
      const created = await datasource('POST', { name: 'hostile', path: where() })
      expectError(created, 400, 'INVALID_REQUEST_BODY', /credentials\.path/)
      expect(created.body).not.toContain(SECRET)
      const list = await t.app.inject({ method: 'GET', url: '/api/v2/datasource', headers: bearer(creds.serviceToken) })
      expect(list.json().data.map((d: { name: string }) => d.name)).not.toContain('hostile')

      const target = await datasource('POST', { name: 'target', path: 'sales/orders.csv' })
      expect([200, 400]).toContain(target.statusCode) // 400: made by an earlier case (same name)
      const updated = await datasource('PUT', { name: 'target', path: where() })
      expectError(updated, 400, 'INVALID_REQUEST_BODY', /credentials\.path/)
      expect(updated.body).not.toContain(SECRET)
    })

    it('a folder turned into a link after create is refused when the files are next opened (update)', async () => {
      expect((await datasource('POST', { name: 'moved', path: 'moved' })).statusCode).toBe(400) // not there yet
      mkdirSync(join(t.config.filesRoot, 'moved'))
      writeFileSync(join(t.config.filesRoot, 'moved', 'a.csv'), 'x\n1\n')
      expect((await datasource('POST', { name: 'moved', path: 'moved' })).statusCode).toBe(200)
      rmSync(join(t.config.filesRoot, 'moved'), { recursive: true })
      symlinkSync(away, join(t.config.filesRoot, 'moved'))
      const updated = await datasource('PUT', { name: 'moved', path: 'moved' })
      expectError(updated, 400, 'INVALID_REQUEST_BODY', /resolves outside FILES_ROOT/)
      expect(updated.body).not.toContain(SECRET)
    })

    it('awss3: file:///etc and other endpoints outside FILES_ROOT → 400; one inside FILES_ROOT works', async () => {
      const s3 = (endpoint: string, bucket: string, prefix?: string) => ({
        name: 'lake',
        bucket,
        region: 'local',
        accessKeyId: 'a',
        secretAccessKey: 'b',
        endpoint,
        ...(prefix === undefined ? {} : { prefix }),
      })
      for (const [endpoint, bucket] of [
        ['file:///etc', 'ssl'],
        ['file:///', 'etc'],
        ['file:///proc/self/cwd', 'packages'],
        [pathToFileURL(away).href.replace(/\/[^/]+$/, ''), away.split('/').pop() as string],
        [`${pathToFileURL(t.config.filesRoot).href}/..`, away.split('/').pop() as string],
        [pathToFileURL(t.config.filesRoot).href, 'linkdir'],
      ]) {
        const res = await datasource('POST', s3(endpoint as string, bucket as string), 'awss3')
        expectError(res, 400, 'INVALID_REQUEST_BODY', /credentials\.(endpoint|bucket)/)
        expect(res.body).not.toContain(SECRET)
      }
      const traversal = await datasource('POST', s3(pathToFileURL(t.config.filesRoot).href, 'sales', '../../'), 'awss3')
      expectError(traversal, 400, 'INVALID_REQUEST_BODY', /credentials\.prefix/)
      const inside = await datasource('POST', s3(pathToFileURL(t.config.filesRoot).href, 'sales'), 'awss3')
      expect(inside.statusCode, inside.body).toBe(200)
      expect(inside.json().data.tables).toBe(1) // orders; the link to the secret is not a table
      const outsideUpdate = await datasource('PUT', s3('file:///etc', 'ssl'), 'awss3')
      expectError(outsideUpdate, 400, 'INVALID_REQUEST_BODY', /credentials\.endpoint/)
    })
  })
})
