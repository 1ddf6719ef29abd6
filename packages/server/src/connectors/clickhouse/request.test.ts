import { describe, expect, it } from 'vitest'
import { ApiError } from '../../errors.js'
import { buildQueryRequest, describeQuery, queryParams, serverInfo, stripTrailing, versionAtLeast } from './request.js'

const modern = serverInfo('24.3.1.2672', 'UTC', true)
const legacy = serverInfo('18.16.1', 'Etc/UTC', false)
const queryId = '00000000-0000-4000-8000-000000000000'

function rejection(fn: () => unknown): ApiError {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError)
    return err as ApiError
  }
  throw new Error('expected a throw')
}

describe('clickhouse request building (no server: the request the connector sends)', () => {
  it('binds params[i] as the server-side query parameter p<i>; the SQL text never holds a value', () => {
    const hostile = "'; drop table x; --"
    const sql = 'SELECT count() FROM t WHERE name = {p0:String} AND n > {p1:Int64};'
    const request = buildQueryRequest(sql, { params: [hostile, 3], timeoutMs: 2500 }, modern, queryId)
    expect(request).toEqual({
      query: 'SELECT count() FROM t WHERE name = {p0:String} AND n > {p1:Int64}',
      format: 'JSONCompactEachRowWithNamesAndTypes',
      query_params: { p0: hostile, p1: 3 },
      clickhouse_settings: {
        max_execution_time: 3,
        timeout_overflow_mode: 'throw',
        readonly: 2,
        output_format_json_quote_64bit_integers: 1,
      },
      query_id: queryId,
    })
    expect(request.query).not.toContain('drop table')
  })

  it('undefined becomes NULL; no params → no query_params at all', () => {
    expect(queryParams([undefined, null, 'a'])).toEqual({ p0: null, p1: null, p2: 'a' })
    const request = buildQueryRequest('SELECT 1', { params: [], timeoutMs: 100 }, modern, queryId)
    expect(request.query_params).toBeUndefined()
    expect(request.clickhouse_settings.max_execution_time).toBe(1) // whole seconds, at least 1
  })

  it('sets session_timezone per query on servers that have it (23.6+)', () => {
    const request = buildQueryRequest(
      'SELECT now()',
      { params: [], timeoutMs: 1000, timezone: 'Asia/Tokyo' },
      modern,
      queryId,
    )
    expect(request.clickhouse_settings.session_timezone).toBe('Asia/Tokyo')
  })

  it('a server without query parameters (< 19.11) gets a clear error, never spliced values', () => {
    const e = rejection(() =>
      buildQueryRequest('SELECT {p0:String}', { params: ['x'], timeoutMs: 1000 }, legacy, queryId),
    )
    expect(e.code).toBe('DATASOURCE_NOT_SUPPORTED')
    expect(e.status).toBe(400)
    expect(e.message).toMatch(/ClickHouse 18\.16\.1 cannot bind query parameters .*19\.11/)
  })

  it('a server without session_timezone (< 23.6): its own zone is fine, another is a clear error', () => {
    const utc = buildQueryRequest('SELECT now()', { params: [], timeoutMs: 1000, timezone: 'UTC' }, legacy, queryId)
    expect(utc.clickhouse_settings.session_timezone).toBeUndefined()
    expect(utc.format).toBe('JSONEachRow')
    const e = rejection(() =>
      buildQueryRequest('SELECT now()', { params: [], timeoutMs: 1000, timezone: 'Asia/Tokyo' }, legacy, queryId),
    )
    expect(e.code).toBe('DATASOURCE_NOT_SUPPORTED')
    expect(e.message).toMatch(/session time zone .*23\.6/)
  })

  it('versions, capability flags and the DESCRIBE fallback', () => {
    expect(versionAtLeast('19.11.3.11', [19, 11])).toBe(true)
    expect(versionAtLeast('19.10.1', [19, 11])).toBe(false)
    expect(versionAtLeast('20.1', [19, 11])).toBe(true)
    expect(versionAtLeast('23.5.9', [23, 6])).toBe(false)
    expect(legacy).toMatchObject({ queryParams: false, sessionTimezone: false, namesAndTypes: false })
    expect(modern).toMatchObject({ queryParams: true, sessionTimezone: true, namesAndTypes: true })
    expect(stripTrailing('SELECT 1 ; \n')).toBe('SELECT 1')
    expect(describeQuery('SELECT 1 AS a;')).toBe('DESCRIBE TABLE (\nSELECT 1 AS a\n)')
  })
})
