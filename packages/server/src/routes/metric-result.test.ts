import { MetricQueryResultSchema } from '@strata/contract/runtime'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MetricResult } from '../services/query/metric-queries.js'
import { sendResult, TRUNCATED_HEADER } from './metric-result.js'

const results: Record<string, MetricResult> = {
  'rows of every JSON type': {
    data: [
      { region: 'north', revenue: 1234.5, orders: 12, ok: true, none: null, at: new Date('2026-01-02T03:04:05.678Z') },
      {
        region: 'sü"d\\\n\u2028 🙂',
        revenue: -0.000001,
        orders: 9007199254740991,
        ok: false,
        none: null,
        nested: { a: [1, 'b'] },
        gone: undefined,
      },
    ],
    timeTaken: 1.23,
    totalRecords: 2,
    metaData: {
      columns: [
        { name: 'region', dataType: 'string' },
        { name: 'revenue', dataType: 'number' },
      ],
      groupbyColumnList: ['region'],
    },
    metricid: 'by_"region"',
    error: null,
    servedFrom: 'rollup',
  },
  'a comparison, no rows, cut at the row cap': {
    data: [],
    timeTaken: 0,
    comparisonValue: 42.5,
    totalRecords: 0,
    metaData: { columns: [], groupbyColumnList: [] },
    metricid: 'kpi',
    error: null,
    servedFrom: 'cache',
    truncated: true,
  },
}

/** The same results through a route that returns them for the response schema's serialiser. */
describe('sendResult', () => {
  const app = Fastify()
  beforeAll(async () => {
    const schema = { response: { 200: MetricQueryResultSchema } }
    app.get('/schema/:name', { schema }, async (request) => results[(request.params as { name: string }).name])
    app.get('/ours/:name', { schema }, async (request, reply) =>
      sendResult(reply, results[(request.params as { name: string }).name] as MetricResult),
    )
    await app.ready()
  })
  afterAll(() => app.close())

  for (const name of Object.keys(results)) {
    it(`writes what the schema's serialiser writes: ${name}`, async () => {
      const path = encodeURIComponent(name)
      const [schema, ours] = await Promise.all([app.inject(`/schema/${path}`), app.inject(`/ours/${path}`)])
      expect(ours.statusCode).toBe(200)
      expect(ours.body).toBe(schema.body)
      expect(ours.headers['content-type']).toBe(schema.headers['content-type'])
      expect(ours.json()).not.toHaveProperty('truncated')
      expect(ours.headers[TRUNCATED_HEADER]).toBe(results[name]?.truncated ? 'true' : undefined)
    })
  }

  it('serialises the rows of a result once, however often it is sent', async () => {
    const result = results['rows of every JSON type'] as MetricResult
    const first = (await app.inject(`/ours/${encodeURIComponent('rows of every JSON type')}`)).body
    const stringify = JSON.stringify
    let rowsWalked = 0
    JSON.stringify = ((value: unknown, ...rest: []) => {
      if (value === result.data) rowsWalked++
      return stringify(value, ...rest)
    }) as typeof JSON.stringify
    try {
      const again = (await app.inject(`/ours/${encodeURIComponent('rows of every JSON type')}`)).body
      expect(again).toBe(first)
      expect(rowsWalked).toBe(0)
    } finally {
      JSON.stringify = stringify
    }
  })

  it('writes each result of the same rows as its own: timeTaken, count, metric id, columns and comparison', async () => {
    const base = results['rows of every JSON type'] as MetricResult
    const variants: MetricResult[] = [
      { ...base, timeTaken: 7.5 },
      { ...base, metricid: 'other' },
      { ...base, totalRecords: 250 },
      { ...base, comparisonValue: 3 },
      { ...base, metaData: { columns: [{ name: 'region', dataType: 'string' }], groupbyColumnList: [] } },
      base,
    ]
    const serialiser = Fastify()
    serialiser.get('/schema', { schema: { response: { 200: MetricQueryResultSchema } } }, async () => current)
    serialiser.get('/ours', async (_request, reply) => sendResult(reply, current))
    let current = base
    for (const variant of [...variants, ...variants]) {
      current = variant
      const [schema, ours] = await Promise.all([serialiser.inject('/schema'), serialiser.inject('/ours')])
      expect(ours.body).toBe(schema.body)
    }
    await serialiser.close()
  })
})
