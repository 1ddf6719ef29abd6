import { describe, expect, it } from 'vitest'
import { parseEndpoint } from './endpoint.js'
import { statementParameters } from './params.js'
import { convertValue, dataTypeOf } from './type-mapping.js'

const WAREHOUSE = '/sql/1.0/warehouses/abc123def456'

describe('parseEndpoint', () => {
  it.each([
    ['dbc-1234.cloud.databricks.com', 'https://dbc-1234.cloud.databricks.com'],
    ['dbc-1234.cloud.databricks.com:8443', 'https://dbc-1234.cloud.databricks.com:8443'],
    ['https://adb-1.2.azuredatabricks.net/', 'https://adb-1.2.azuredatabricks.net'],
    ['http://127.0.0.1:9000', 'http://127.0.0.1:9000'],
  ])('serverHostname %s → %s', (serverHostname, baseUrl) => {
    expect(parseEndpoint(serverHostname, WAREHOUSE)).toEqual({ endpoint: { baseUrl, warehouseId: 'abc123def456' } })
  })

  it('takes the warehouse ID from /sql/1.0/warehouses/<id> and the older /sql/1.0/endpoints/<id>', () => {
    for (const path of ['/sql/1.0/warehouses/abc', 'sql/1.0/warehouses/abc/', '/sql/1.0/endpoints/abc']) {
      expect(parseEndpoint('h.example', path)).toEqual({
        endpoint: { baseUrl: 'https://h.example', warehouseId: 'abc' },
      })
    }
  })

  it('refuses all-purpose cluster paths with the reason, and malformed hosts and paths', () => {
    const cluster = parseEndpoint('h.example', '/sql/protocolv1/o/123/0123-456789-abc')
    expect(cluster).toEqual({ problem: expect.stringMatching(/all-purpose cluster.*SQL warehouse/) })
    for (const host of [
      'ftp://h.example',
      'https://user:pw@h.example',
      'https://h.example/path',
      'https://h.example?x=1',
      '',
    ]) {
      expect(parseEndpoint(host, WAREHOUSE), host).toEqual({ problem: expect.stringMatching(/^serverHostname/) })
    }
    for (const path of ['/sql/1.0/warehouses/', '/sql/1.0/warehouses/a/../b', '/api/2.0/sql/statements']) {
      expect(parseEndpoint('h.example', path), path).toEqual({ problem: expect.stringMatching(/^httpPath/) })
    }
  })
})

describe('statementParameters', () => {
  it('binds params[i] as :p<i> with a type; null is an omitted value', () => {
    expect(statementParameters(['x', 3, 2.5, true, null, 2n ** 70n, new Date('2024-01-01T00:00:00Z')])).toEqual([
      { name: 'p0', value: 'x', type: 'STRING' },
      { name: 'p1', value: '3', type: 'BIGINT' },
      { name: 'p2', value: '2.5', type: 'DOUBLE' },
      { name: 'p3', value: 'true', type: 'BOOLEAN' },
      { name: 'p4' },
      { name: 'p5', value: (2n ** 70n).toString(), type: 'DECIMAL(38,0)' },
      { name: 'p6', value: '2024-01-01T00:00:00.000Z', type: 'TIMESTAMP' },
    ])
  })

  it('refuses what the API cannot bind (lists, objects, non-finite numbers) with a 400', () => {
    for (const value of [[1], { a: 1 }, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => statementParameters([value])).toThrow(expect.objectContaining({ status: 400 }))
    }
  })
})

describe('type mapping', () => {
  it('maps Databricks type names, manifest spellings and aliases', () => {
    const cases: [string, string][] = [
      ['INT', 'integer'],
      ['LONG', 'integer'],
      ['bigint', 'integer'],
      ['SHORT', 'integer'],
      ['BYTE', 'integer'],
      ['decimal(10,2)', 'number'],
      ['DOUBLE', 'number'],
      ['FLOAT', 'number'],
      ['STRING', 'string'],
      ['varchar(20)', 'string'],
      ['BOOLEAN', 'boolean'],
      ['DATE', 'date'],
      ['TIMESTAMP', 'datetime'],
      ['TIMESTAMP_NTZ', 'datetime'],
      ['array<int>', 'json'],
      ['STRUCT', 'json'],
      ['VARIANT', 'json'],
      ['INTERVAL', 'unknown'],
    ]
    for (const [native, ours] of cases) expect(dataTypeOf(native), native).toBe(ours)
  })

  it('converts JSON_ARRAY strings to JSON-safe values', () => {
    expect(convertValue('9007199254740993', 'bigint')).toBe('9007199254740993')
    expect(convertValue('12', 'int')).toBe(12)
    expect(convertValue('10.50', 'decimal(10,2)')).toBe(10.5)
    expect(convertValue('NaN', 'double')).toBe('NaN')
    expect(convertValue('true', 'boolean')).toBe(true)
    expect(convertValue('2024-01-02T03:04:05.000Z', 'timestamp')).toBe('2024-01-02T03:04:05.000Z')
    expect(convertValue('2024-01-02 03:04:05', 'timestamp_ntz')).toBe('2024-01-02T03:04:05')
    expect(convertValue('[1,2]', 'array<int>')).toEqual([1, 2])
    expect(convertValue(null, 'string')).toBeNull()
  })
})
