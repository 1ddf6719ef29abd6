import type { Metric } from '@strata/contract/document'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ctx, metric, model } from '../../test/fixtures/query.js'
import { propertyRuns } from '../../test/helpers/property-runs.js'
import { ApiError, TokenRefusal } from '../errors.js'
import { type Bound, bindRequest, rebind, type Scalar, VALUE_LIMITS } from './bind.js'
import { type CompiledQuery, type CompileInput, compileMetric } from './compile.js'
import { matchPreset } from './date-presets.js'
import { dialects } from './dialects/registry.js'
import type { AppliedFilter, FilterSource } from './filters.js'

const filter = (value: unknown, over: Partial<AppliedFilter> = {}): AppliedFilter =>
  ({ table: 'public.orders', column: 'status', value, source: 'dashboard', name: 'status', ...over }) as AppliedFilter

function refusal(fn: () => unknown): string {
  try {
    fn()
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError)
    expect((e as ApiError).status).toBe(400)
    return (e as ApiError).message
  }
  throw new Error('expected a 400')
}

describe('bindRequest', () => {
  it('replaces every value by a Bound that serialises as its type, never its value', () => {
    const bound = bindRequest(
      [filter(['a', 'b']), filter('secret'), filter({ min: 1, max: 2.5 }), filter(true), filter('Last 7 days')],
      { region: 'EU' },
      'acme',
    )
    expect(bound.values).toEqual(['acme', 'EU', 'a', 'b', 'secret', 1, 2.5, true])
    const shape = JSON.stringify([bound.filters.map((f) => f.value), bound.rls, bound.clientId])
    expect(shape).toBe(
      JSON.stringify([
        [
          [{ '?': 's' }, { '?': 's' }],
          { '?': 's' },
          { min: { '?': 'i' }, max: { '?': 'f' } },
          { '?': 'b' },
          'Last 7 days',
        ],
        { region: { '?': 's' } },
        { '?': 's' },
      ]),
    )
    for (const v of ['secret', 'acme', 'EU']) expect(shape).not.toContain(v)
  })

  it('a refusal of the token’s values (rlsSettings, app filters) is the token’s (TokenRefusal); of the end user’s is not', () => {
    const blame = (fn: () => unknown) => {
      refusal(fn)
      try {
        fn()
      } catch (e) {
        return e instanceof TokenRefusal
      }
    }
    expect(blame(() => bindRequest([], { region: { a: 1 } }, 'a'))).toBe(true)
    expect(blame(() => bindRequest([filter(null, { source: 'app' })], {}, 'a'))).toBe(true)
    expect(blame(() => bindRequest([filter(null, { source: 'rls' })], {}, 'a'))).toBe(true)
    expect(blame(() => bindRequest([filter(null)], {}, 'a'))).toBe(false)
    expect(blame(() => bindRequest([filter(null, { source: 'metric' })], {}, 'a'))).toBe(false)
  })

  it('refuses what no filter value form allows, and values past the caps, with a 400 naming the filter', () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 10_000; i++) deep = [deep]
    expect(refusal(() => bindRequest([filter(deep)], {}, 'a'))).toMatch(/dashboardFilter\.status\[0\]: a list holds/)
    let deepObject: unknown = 'x'
    for (let i = 0; i < 10_000; i++) deepObject = { a: deepObject }
    expect(refusal(() => bindRequest([filter(deepObject)], {}, 'a'))).toMatch(/not a filter value/)
    expect(refusal(() => bindRequest([filter([{ a: 1 }])], {}, 'a'))).toMatch(/a list holds/)
    expect(refusal(() => bindRequest([filter(null)], {}, 'a'))).toMatch(/a value is required/)
    expect(refusal(() => bindRequest([filter('x'.repeat(VALUE_LIMITS.text + 1))], {}, 'a'))).toMatch(/longer than/)
    expect(refusal(() => bindRequest([filter('a\u0000b')], {}, 'a'))).toMatch(/NUL/)
    expect(refusal(() => bindRequest([filter(Array(VALUE_LIMITS.list + 1).fill('a'))], {}, 'a'))).toMatch(
      /at most 1000/,
    )
    expect(refusal(() => bindRequest([filter({ min: 3, max: 1 })], {}, 'a'))).toMatch(/min is greater than max/)
    expect(refusal(() => bindRequest([filter({ min: '1' })], {}, 'a'))).toMatch(/min: expected a number/)
    expect(refusal(() => bindRequest([filter({ startDate: { a: 1 } })], {}, 'a'))).toMatch(/startDate/)
    expect(refusal(() => bindRequest([filter({ sql: 'select 1', columnName: 'x', extra: 1 })], {}, 'a'))).toMatch(
      /not a filter value/,
    )
    // the attack that grew the heap: 1,000 strings of 900 characters in one filter
    const big = Array.from({ length: 1000 }, (_, i) => `${i}`.padEnd(900, 'x'))
    expect(refusal(() => bindRequest([filter(big)], {}, 'a'))).toMatch(/at most 100000 characters in all/)
    expect(refusal(() => bindRequest([], { region: [[1]] }, 'a'))).toMatch(/rlsSettings\.region\[0\]/)
  })
})

// ---- one compiled statement per shape, rebound per request --------------------------------

type Leaf = { readonly kind: 's' | 'i' | 'f' | 'b' }
const notPreset = fc.string({ maxLength: 20 }).filter((s) => !s.includes('\u0000') && matchPreset(s) === undefined)
const integer = fc.integer({ min: -1_000_000, max: 1_000_000 })
const fraction = fc
  .double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 })
  .filter((n) => !Number.isSafeInteger(n))
const leafOf = (kind: Leaf['kind']): fc.Arbitrary<Scalar> =>
  kind === 's' ? notPreset : kind === 'i' ? integer : kind === 'f' ? fraction : fc.boolean()
const kindOf = (v: Scalar): Leaf['kind'] =>
  typeof v === 'string' ? 's' : typeof v === 'boolean' ? 'b' : Number.isSafeInteger(v) ? 'i' : 'f'
const anyLeaf = fc.oneof(notPreset, integer, fraction, fc.boolean())

/** A filter value of any form, and a generator of other values of exactly its shape. */
const valueArb = fc.oneof(
  anyLeaf,
  fc.array(anyLeaf, { maxLength: 4 }),
  fc.record({ min: fc.integer({ max: 0 }), max: fc.integer({ min: 1 }) }),
  fc.constantFrom('Last 7 days', 'this quarter', { startDate: '2024-01-01', endDate: '2024-02-10' }),
)
function sameShape(v: unknown): fc.Arbitrary<unknown> {
  if (Array.isArray(v)) return fc.tuple(...v.map((x) => leafOf(kindOf(x))))
  if (typeof v === 'object' && v !== null && 'min' in v) {
    return fc.record({ min: fc.integer({ max: 0 }), max: fc.integer({ min: 1 }) })
  }
  if (typeof v === 'object' || (typeof v === 'string' && matchPreset(v) !== undefined)) return fc.constant(v)
  return leafOf(kindOf(v as Scalar))
}

const column = fc.constantFrom('status', 'amount', 'paid', 'ordered_on', 'created_at')
const filtersArb = fc.array(
  fc.record({
    column,
    value: valueArb,
    type: fc.constantFrom(undefined, 'text', 'multi-select'),
    source: fc.constantFrom<FilterSource>('dashboard', 'metric', 'app'),
  }),
  { maxLength: 4 },
)

const M: Metric = metric(
  {
    from: 'orders',
    measures: [{ name: 'n', aggregate: 'count' }],
    dimensions: [{ name: 'm', column: 'created_at', timeGrain: 'month' }],
  },
  { rls: [{ variable: 'region', column: 'region', table: 'countries' }], comparison: { period: 'previous-period' } },
)
const SQL_M: Metric = metric(undefined, { sql: 'select * from t where c = {{clientId}} and r IN ({{region}})' })

interface Req {
  readonly filters: readonly {
    column: string
    value: unknown
    type: 'text' | 'multi-select' | undefined
    source: FilterSource
  }[]
  readonly clientId: string
  readonly region: unknown
}

type Outcome = { ok: CompiledQuery } | { error: string }
function outcome(fn: () => CompiledQuery): Outcome {
  try {
    return { ok: fn() }
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 400) throw e
    return { error: e.message }
  }
}

describe.each([...dialects.entries()])('one statement per shape on %s', (_name, dialect) => {
  it('rebinding the statement compiled for one request gives exactly what compiling the other request gives', () => {
    const requests = filtersArb.chain((filters) => {
      const a: Req = { filters, clientId: 'acme', region: 'EU' }
      const b = fc.record({
        filters: fc.tuple(...filters.map((f) => sameShape(f.value).map((value) => ({ ...f, value })))),
        clientId: notPreset,
        region: sameShape('EU'),
      })
      return fc.tuple(fc.constant(a), b)
    })
    fc.assert(
      fc.property(requests, fc.constantFrom(M, SQL_M), ([a, b], m) => {
        const input = (r: Req, bound = false): CompileInput & { values: readonly Scalar[]; shape: string } => {
          const applied = r.filters.map((f) =>
            filter(f.value, { column: f.column, type: f.type, source: f.source, name: f.column }),
          ) as AppliedFilter[]
          const req = bindRequest(m.sql === undefined ? applied : [], { region: r.region }, r.clientId)
          const context = ctx({
            tenancy: { kind: 'table', clientId: bound ? (req.clientId as Bound) : r.clientId },
            rls: bound ? req.rls : { region: r.region },
            filters: bound ? req.filters : m.sql === undefined ? applied : [],
          })
          return {
            metric: m,
            model: model(),
            dialect,
            context,
            values: req.values,
            shape: JSON.stringify([req.filters, req.rls, req.clientId]),
          }
        }
        const shapeA = input(a, true)
        const shapeB = input(b, true)
        expect(shapeB.shape).toBe(shapeA.shape)
        const template = outcome(() => compileMetric(shapeA))
        const direct = outcome(() => compileMetric(input(b)))
        // an error may never depend on a value the shape does not hold: a cached shape would skip it
        expect('error' in template).toBe('error' in direct)
        if (!('ok' in template) || !('ok' in direct)) return
        const t = template.ok
        const d = direct.ok
        const bind = (p: readonly unknown[], s: CompiledQuery['slots']) =>
          rebind(p, s, shapeB.values, (v) => dialect.bindValue(v))
        expect(t.sql).toBe(d.sql)
        expect(bind(t.params, t.slots)).toEqual(d.params)
        expect(t.countSql?.sql).toBe(d.countSql?.sql)
        expect(t.comparison?.sql).toBe(d.comparison?.sql)
        if (t.comparison && d.comparison) {
          expect(bind(t.comparison.params, t.comparison.slots)).toEqual(d.comparison.params)
        }
      }),
      propertyRuns(200),
    )
  })
})
