import { describe, expect, it } from 'vitest'
import type { RuntimeMetric } from '../src/api/types.js'
import { chipsFor, decodeDrills, encodeDrills, periodLabel, writeDrillParam } from '../src/drill/chips-url.js'
import { DRILL_PARAM } from '../src/drill-state.js'
import { metric } from './fixtures.js'

/** Two metrics of the demo's shape: a status doughnut, and revenue by month with a date dimension. */
const metrics: RuntimeMetric[] = [
  { ...metric({ type: 'doughnut' }), drillColumns: { status: { table: 'main.orders', column: 'status' } } },
  {
    ...metric({ type: 'bar' }),
    timeGrains: { month: 'month' },
    drillColumns: {
      month: { table: 'main.orders', column: 'created_at' },
      customer: { table: 'main.orders', column: 'customer_id' },
    },
  },
]
const paid = { table: 'main.orders', column: 'status', value: 'paid' }
const march = { table: 'main.orders', column: 'created_at', value: { startDate: '2026-03-01', endDate: '2026-03-31' } }

describe('drill chips in the URL', () => {
  it('round-trips every value form through the param, beside the filters’ params', () => {
    const filters = [paid, march, { table: 'main.orders', column: 'customer_id', value: 42 }]
    const search = writeDrillParam('?category=%5B%22Books%22%5D&utm=x', filters)
    const params = new URLSearchParams(search)
    expect(params.get('category')).toBe('["Books"]')
    expect(params.get('utm')).toBe('x')
    expect(params.get(DRILL_PARAM)).toBe(encodeDrills(filters))
    expect(JSON.parse(params.get(DRILL_PARAM) ?? '')).toEqual([
      ['main.orders', 'status', 'paid'],
      ['main.orders', 'created_at', { startDate: '2026-03-01', endDate: '2026-03-31' }],
      ['main.orders', 'customer_id', 42],
    ])
    expect(decodeDrills(params.get(DRILL_PARAM))).toEqual(filters)
    // a number stays a number, a text that looks like one stays text
    expect(decodeDrills(encodeDrills([{ ...paid, value: '42' }]))[0]?.value).toBe('42')
    expect(decodeDrills(encodeDrills([{ ...paid, value: true }]))[0]?.value).toBe(true)
  })

  it('removes the param when no chip is left, and leaves the rest of the URL alone', () => {
    expect(writeDrillParam(`?a=1&${DRILL_PARAM}=x`, [])).toBe('?a=1')
    expect(writeDrillParam(`?${DRILL_PARAM}=x`, [])).toBe('')
  })

  it('takes the property’s objects as well as the URL’s tuples', () => {
    expect(decodeDrills([paid, march])).toEqual([paid, march])
  })

  it('drops what is not a drill value: broken JSON, wrong shapes, long text, bad days, reversed ranges', () => {
    expect(decodeDrills('[[')).toEqual([])
    expect(decodeDrills('{"table":"t"}')).toEqual([])
    expect(decodeDrills(42)).toEqual([])
    const bad = [
      ['main.orders', 'status'],
      ['main.orders', 'status', null],
      ['main.orders', 'status', ['paid']],
      ['main.orders', 'status', { startDate: '2026-03-01' }],
      ['main.orders', 'status', { startDate: '2026-03-01', endDate: '2026-03-31', sql: '1=1' }],
      ['main.orders', 'created_at', { startDate: '2026-03-31', endDate: '2026-03-01' }],
      ['main.orders', 'created_at', { startDate: '2026-3-1', endDate: '2026-03-31' }],
      ['main.orders', 'status', 'x'.repeat(501)],
      ['main.orders', 'status', Number.NaN],
      ['', 'status', 'paid'],
      ['main.orders', 7, 'paid'],
      'main.orders.status=paid',
    ]
    expect(decodeDrills(JSON.stringify(bad))).toEqual([])
    expect(decodeDrills([...bad, paid])).toEqual([paid])
  })

  it('keeps one value per column (the last) and at most six chips', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ table: 'main.orders', column: `c${i}`, value: i }))
    expect(decodeDrills(many).map((f) => f.column)).toEqual(['c3', 'c4', 'c5', 'c6', 'c7', 'c8'])
    expect(decodeDrills([paid, { ...paid, value: 'refunded' }])).toEqual([{ ...paid, value: 'refunded' }])
  })
})

describe('chips from drill filters', () => {
  it('keeps a filter only on a column a shown metric drills on, named after its dimension', () => {
    const chips = chipsFor(
      [
        paid,
        march,
        { table: 'main.orders', column: 'customer_id', value: 42 },
        // unknown column, unknown table, a tenant column: dropped here (the server refuses them too)
        { table: 'main.orders', column: 'nope', value: 'x' },
        { table: 'main.secrets', column: 'status', value: 'paid' },
        { table: 'main.orders', column: 'tenant_id', value: 'globex' },
      ],
      metrics,
      'en-US',
    )
    expect(chips.map((c) => c.label)).toEqual(['Status: paid', 'Month: Mar 2026', 'Customer: 42'])
    expect(chips.map((c) => c.filter)).toEqual([
      paid,
      march,
      { table: 'main.orders', column: 'customer_id', value: 42 },
    ])
  })

  it('takes a range of days only on a time-grained dimension, and a plain value only on another', () => {
    expect(chipsFor([{ ...paid, value: { startDate: '2026-01-01', endDate: '2026-01-31' } }], metrics)).toEqual([])
    expect(chipsFor([{ ...march, value: '2026-03-01' }], metrics)).toEqual([])
  })

  it('names a range by the period it is', () => {
    expect(periodLabel({ startDate: '2026-01-01', endDate: '2026-12-31' })).toBe('2026')
    expect(periodLabel({ startDate: '2026-04-01', endDate: '2026-06-30' })).toBe('Q2 2026')
    expect(periodLabel({ startDate: '2026-03-01', endDate: '2026-03-31' }, 'en-US')).toBe('Mar 2026')
    expect(periodLabel({ startDate: '2026-03-05', endDate: '2026-03-09' })).toBe('2026-03-05 – 2026-03-09')
  })
})
