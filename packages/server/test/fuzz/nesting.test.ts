import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestContext } from '../helpers/app.js'
import {
  deepText,
  jsonText,
  MAX_NESTING,
  MIN_NESTING,
  NEST_SHAPES,
  nestedValue,
  nestingPositions,
  placeAt,
  RawJson,
} from './nesting.js'
import { type Operation, operationsOf } from './requests.js'
import type { JsonSchema, SchemaContext } from './schema-arbitraries.js'

/** How deep arrays and objects nest in JSON text (brackets in strings do not count), by a linear scan. */
function depthOf(text: string): number {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '[' || c === '{') max = Math.max(max, ++depth)
    else if (c === ']' || c === '}') depth--
  }
  return max
}

describe('the nesting mutations of the fuzzer', () => {
  it('jsonText writes what JSON.stringify writes, own __proto__ keys included', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        expect(jsonText(value)).toBe(JSON.stringify(value))
      }),
      { numRuns: 300, seed: 7 },
    )
    const odd = { a: undefined, b: [undefined, () => 1, Number.NaN, -0], c: Symbol('x') }
    expect(jsonText(odd)).toBe(JSON.stringify(odd))
    const poisoned = JSON.parse('{"__proto__":{"polluted":true},"x":1}') as unknown
    expect(jsonText(poisoned)).toBe('{"__proto__":{"polluted":true},"x":1}')
  })

  it('jsonText writes values too deep for JSON.stringify, and splices raw JSON in place', () => {
    let value: unknown = new RawJson('[[1]]')
    for (let i = 0; i < 100_000; i++) value = i % 2 === 0 ? [value] : { a: value }
    expect(() => JSON.stringify(value)).toThrow(RangeError)
    const text = jsonText(value)
    expect(depthOf(text)).toBe(100_002)
    expect(text.includes('[[1]]')).toBe(true)
  })

  it('deep text has the depth it claims in every shape, parses, and stays well under BODY_LIMIT', () => {
    for (const shape of NEST_SHAPES) {
      for (const depth of [MIN_NESTING, 5_000, MAX_NESTING]) {
        for (const width of [2, 50]) {
          const deep = deepText(depth, shape, width)
          expect(depthOf(deep.text), `${shape} ${depth} × ${width}`).toBe(deep.depth)
          expect(deep.depth).toBeGreaterThanOrEqual(MIN_NESTING)
          expect(deep.depth).toBeLessThanOrEqual(depth)
          expect(deep.text.length).toBeLessThan(700_000)
          expect(() => JSON.parse(deep.text)).not.toThrow()
        }
      }
      // the chains nest the whole requested depth; the wide shapes as deep as their width allows
      if (shape !== 'wide' && shape !== 'forest') expect(deepText(MAX_NESTING, shape).depth).toBe(MAX_NESTING)
    }
    expect(deepText(MAX_NESTING, 'wide', 2).depth).toBeGreaterThan(10_000)
  })

  it('placeAt makes the containers on the way and picks among a step’s keys', () => {
    expect(placeAt({ a: 1 }, ['f', ['x', 'y'], 0], 'D', 1)).toEqual({ a: 1, f: { y: ['D'] } })
    expect(placeAt({ f: 'not an object' }, ['f', 'k'], 'D', 0)).toEqual({ f: { k: 'D' } })
    expect(placeAt(null, [0, 0], 'D', 0)).toEqual([['D']])
    expect(placeAt({ a: 1 }, [], 'D', 0)).toBe('D')
  })

  describe('over the OpenAPI document the app serves', () => {
    let t: TestContext
    let ops: Operation[]
    const pools: Record<string, unknown[]> = {
      dashboardFilter: [{ country: ['DE'], amount: { min: 20 } }],
      metricFilter: [{ paid: ['paid'] }],
    }
    let components: Record<string, JsonSchema> = {}
    const ctx: SchemaContext = {
      resolve: (ref) => components[ref.replace('#/components/schemas/', '')],
      pool: (field) => pools[field],
    }
    beforeAll(async () => {
      t = await createTestApp('sqlite', { LOG_LEVEL: 'silent' })
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json()
      components = doc.components.schemas
      ops = operationsOf(doc)
    })
    afterAll(async () => t.close())

    const labels = (method: string, path: string) => {
      const op = ops.find((o) => o.method === method && o.path === path)
      if (!op?.body) throw new Error(`${method} ${path} takes no body`)
      return nestingPositions(op.body, ctx).map((p) => p.label)
    }

    it('finds every nested position: fields, records, list items and inside free-form values', () => {
      for (const path of ['/api/v2/data-app/query', '/api/v2/dataApp/query', '/api/v2/embed/runtime/{embedId}/query']) {
        const found = labels('POST', path)
        for (const label of ['(whole)', 'metricId', 'dashboardFilter', 'dashboardFilter.*', 'metricFilter.*']) {
          expect(found, path).toContain(label)
        }
        // inside a filter value: in a list, or in an object such as a range
        expect(found, path).toContain('dashboardFilter.*[0]')
        expect(found, path).toContain('dashboardFilter.*.*')
      }
      // the document (the DashboardDocument schema), down to a chart's free-form options
      expect(labels('POST', '/api/v2/data-app/import-dashboard')).toEqual(
        expect.arrayContaining([
          'importDashboardData',
          'importDashboardData.metrics[0].query.where[0].values[0]',
          'importDashboardData.metrics[0].chart.*',
          'schemaPairs[0].targetSchema',
        ]),
      )
      // the credentials of each datasourceType
      expect(labels('POST', '/api/v2/datasource')).toEqual(
        expect.arrayContaining([
          'credentials.sshPrivateKey',
          'credentials.credentials_json',
          'tenancySettings.tableName',
        ]),
      )
      expect(labels('POST', '/api/v2/guest-token/create')).toEqual(
        expect.arrayContaining(['params.dashboardAppFilters[0].values.*', 'params.rlsSettings[0].values.*[0]']),
      )
      // every operation with a body has positions beyond the whole body, one at least per declared field
      for (const op of ops.filter((o) => o.body)) {
        const found = nestingPositions(op.body as NonNullable<Operation['body']>, ctx).map((p) => p.label)
        expect(found, `${op.method} ${op.path}`).toContain('(whole)')
        expect(found.length, `${op.method} ${op.path}`).toBeGreaterThan(1)
      }
    })

    it('puts the deep text at the position it reports, in a body that is otherwise the example’s', () => {
      const op = ops.find((o) => o.method === 'POST' && o.path === '/api/v2/data-app/query')
      const example = { embedId: 'e', metricId: 'm', clientId: 'acme', dashboardFilter: { country: ['DE'] } }
      const bodies = fc.sample(nestedValue(op?.body ?? {}, { ...ctx, examples: [example] }), { numRuns: 200, seed: 3 })
      for (const body of bodies) {
        const depth = depthOf(body.text)
        expect(depth, body.at).toBeGreaterThanOrEqual(body.nesting.depth)
        expect(depth, body.at).toBeLessThanOrEqual(body.nesting.depth + 6)
        expect(() => JSON.parse(body.text)).not.toThrow()
      }
      // the example's fields survive where the deep text is not
      const inFilter = bodies.find((b) => b.at === 'dashboardFilter.*[0]' && b.text.startsWith('{"embedId":"e"'))
      expect(inFilter, 'a deep value inside a filter list of the example').toBeDefined()
      expect(example.dashboardFilter.country).toEqual(['DE']) // examples are shared: never changed
    })
  })
})
