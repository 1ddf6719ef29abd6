/**
 * The connector against a local HTTP stand-in that answers like a modern ClickHouse (24.x):
 * proves what goes on the wire for query parameters, session_timezone and the tenant database,
 * and how the streamed JSONCompactEachRowWithNamesAndTypes answer is read, on a machine whose
 * real ClickHouse (18.16) is too old for those features.
 */
import http from 'node:http'
import type net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectorOptions } from '../types.js'
import { ClickhouseConnector } from './connector.js'

interface Seen {
  readonly url: URL
  readonly body: string
  readonly auth: string | undefined
}

const options: ConnectorOptions = { connectTimeoutMs: 1000, poolMax: 2 }

describe('clickhouse connector against a modern-server stand-in (no server: the HTTP requests it sends)', () => {
  const seen: Seen[] = []
  let server: http.Server
  let port = 0

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = ''
      req.on('data', (chunk) => {
        body += chunk
      })
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://localhost')
        const query = url.searchParams.get('query') ?? body
        seen.push({ url, body: query, auth: req.headers.authorization })
        res.setHeader('Content-Type', 'text/plain; charset=UTF-8')
        if (query.includes('version()')) {
          res.end('{"version":"24.3.1.2672","timezone":"UTC","compact":"1"}\n')
          return
        }
        const lines = [
          ['v', 'n', 'big', 't'],
          ['String', 'Int64', 'UInt64', "DateTime('Asia/Tokyo')"],
          ...Array.from({ length: 5 }, (_, i) => [`row${i}`, String(i), '18446744073709551615', '2024-01-01 09:00:00']),
        ]
        res.end(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as net.AddressInfo).port
  })

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it('sends values only as param_p<i>, with session_timezone, max_execution_time and the tenant database', async () => {
    const c = new ClickhouseConnector(
      { name: 'ch', host: '127.0.0.1', port, user: 'reader', password: 'pw-secret' },
      options,
    )
    try {
      const hostile = "'; drop table x; --"
      const result = await c.execute('SELECT v FROM t WHERE v = {p0:String} AND n > {p1:Int64}', {
        params: [hostile, 2],
        timeoutMs: 2000,
        maxRows: 3,
        timezone: 'Asia/Tokyo',
        database: 'tenant_42',
      })
      const request = seen.at(-1)!
      expect(request.body.replace(/\s+/g, ' ')).toBe(
        'SELECT v FROM t WHERE v = {p0:String} AND n > {p1:Int64} FORMAT JSONCompactEachRowWithNamesAndTypes',
      )
      expect(request.body).not.toContain('drop table')
      expect(request.url.searchParams.get('param_p0')).toBe("\\'; drop table x; --")
      expect(request.url.searchParams.get('param_p1')).toBe('2')
      expect(request.url.searchParams.get('session_timezone')).toBe('Asia/Tokyo')
      expect(request.url.searchParams.get('max_execution_time')).toBe('2')
      expect(request.url.searchParams.get('database')).toBe('tenant_42')
      expect(request.url.searchParams.get('query_id')).toMatch(/^[0-9a-f-]{36}$/)
      expect(request.url.search).not.toContain('pw-secret') // credentials travel in a header
      expect(request.auth).toMatch(/^Basic /)

      expect(result.columns).toEqual([
        { name: 'v', dataType: 'string' },
        { name: 'n', dataType: 'integer' },
        { name: 'big', dataType: 'integer' },
        { name: 't', dataType: 'datetime' },
      ])
      expect(result.rows).toEqual(
        [0, 1, 2].map((i) => ({ v: `row${i}`, n: i, big: '18446744073709551615', t: '2024-01-01T09:00:00' })),
      )
      expect(result.truncated).toBe(true)
    } finally {
      await c.close()
    }
  })

  it('the configured database rides on every request; without params there is no param_*', async () => {
    const c = new ClickhouseConnector(
      { name: 'ch', host: '127.0.0.1', port, user: 'reader', password: '', database: 'analytics' },
      options,
    )
    try {
      const result = await c.execute('SELECT 1', { params: [], timeoutMs: 1000, maxRows: 10 })
      expect(result.truncated).toBe(false)
      expect(result.rows).toHaveLength(5)
      const request = seen.at(-1)!
      expect(request.url.searchParams.get('database')).toBe('analytics')
      expect([...request.url.searchParams.keys()].filter((k) => k.startsWith('param_'))).toEqual([])
      expect(request.url.searchParams.get('session_timezone')).toBeNull()
    } finally {
      await c.close()
    }
  })
})

// Regression (issue 12): a ClickHouse datasource aimed at another HTTP service answered
// DATASOURCE_CONNECTION_ERROR with that service's response body, so a service-token holder could
// read internal HTTP services through the error.
describe('clickhouse connector aimed at another HTTP service (no server: a node:http peer)', () => {
  const SECRET = 'AKIA-internal-secret-7f3e9a'
  const answers: Record<string, (res: http.ServerResponse) => void> = {
    'an HTML 404': (res) => {
      res.writeHead(404, { 'content-type': 'text/html' }).end(`<html><body>Not found: ${SECRET}</body></html>`)
    },
    'a JSON 500': (res) => {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: SECRET }))
    },
    'a JSON 200': (res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: SECRET }))
    },
    'plain text 200': (res) => {
      res.writeHead(200).end(`hello ${SECRET}`)
    },
    'a ClickHouse-like exception of 10 kB': (res) => {
      res.writeHead(500).end(`Code: 516. DB::Exception: ${SECRET} ${'x'.repeat(10_000)}`)
    },
  }

  it.each(Object.keys(answers))('never repeats the body of %s; at most 200 characters of a reason', async (kind) => {
    const server = http.createServer((req, res) => {
      req.resume()
      req.on('end', () => answers[kind]?.(res))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as net.AddressInfo
    const c = new ClickhouseConnector(
      { name: 'ch', host: '127.0.0.1', port, user: 'u', password: 'pw-secret' },
      options,
    )
    try {
      const error = await c.test().then(
        () => undefined,
        (e: unknown) => e as { code?: string; status?: number; message: string },
      )
      expect(error).toMatchObject({ code: 'DATASOURCE_CONNECTION_ERROR', status: 400 })
      const reason = error?.message.replace('Could not connect to the datasource: ', '') ?? ''
      expect(reason.length).toBeLessThanOrEqual(200)
      if (kind.startsWith('a ClickHouse')) expect(reason).toMatch(/^AKIA/)
      else {
        expect(error?.message).not.toContain(SECRET)
        expect(reason).toBe('the server did not answer as ClickHouse')
      }
    } finally {
      await c.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
