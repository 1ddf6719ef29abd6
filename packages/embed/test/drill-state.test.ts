import { describe, expect, it } from 'vitest'
import { nextGrain, periodOf } from '../src/drill/periods.js'
import { DrillState } from '../src/drill-state.js'

describe('drill state', () => {
  const books = { filter: { table: 'main.orders', column: 'category', value: 'Books' }, label: 'Category: Books' }
  const toys = { filter: { table: 'main.orders', column: 'category', value: 'Toys' }, label: 'Category: Toys' }
  const level = {
    dimension: 'month',
    grain: 'day' as const,
    filter: { table: 'main.orders', column: 'created_at', value: { startDate: '2026-03-01', endDate: '2026-03-31' } },
    label: 'Mar 2026',
  }

  it('sends nothing until something is drilled', () => {
    expect(new DrillState().bodyFor('m')).toBeUndefined()
  })

  it('one chip per column: a new value replaces the old, the same value changes nothing', () => {
    const s = new DrillState()
    expect(s.addChip(books)).toBe(true)
    expect(s.addChip(books)).toBe(false)
    expect(s.addChip(toys)).toBe(true)
    expect(s.chips.map((c) => c.label)).toEqual(['Category: Toys'])
    expect(s.bodyFor('any')).toEqual({ filters: [toys.filter] })
    expect(s.removeChip(0)).toBe(true)
    expect(s.bodyFor('any')).toBeUndefined()
  })

  it("a card's levels go to that card only, with its last grain; truncating goes back up", () => {
    const s = new DrillState()
    s.addChip(books)
    expect(s.push('m', level)).toBe(true)
    expect(s.bodyFor('m')).toEqual({
      filters: [books.filter, level.filter],
      timeGrain: { dimension: 'month', grain: 'day' },
    })
    expect(s.bodyFor('other')).toEqual({ filters: [books.filter] })
    expect(s.truncate('m', 1)).toBe(false)
    expect(s.truncate('m', 0)).toBe(true)
    expect(s.levelsOf('m')).toEqual([])
  })
})

describe('drill periods', () => {
  it('drills year and quarter to months, month and week to days, and stops at a day', () => {
    expect(['year', 'quarter', 'month', 'week', 'day', undefined].map(nextGrain)).toEqual([
      'month',
      'month',
      'day',
      'day',
      undefined,
      undefined,
    ])
  })

  it("a bucket's first and last day, whatever form the row's value takes", () => {
    expect(periodOf('2024-01-01', 'year')).toEqual({ startDate: '2024-01-01', endDate: '2024-12-31' })
    expect(periodOf('2024-02-01T00:00:00', 'month')).toEqual({ startDate: '2024-02-01', endDate: '2024-02-29' })
    expect(periodOf('2026-10-01 00:00:00+00', 'quarter')).toEqual({ startDate: '2026-10-01', endDate: '2026-12-31' })
    expect(periodOf('2026-12-28', 'week')).toEqual({ startDate: '2026-12-28', endDate: '2027-01-03' })
    expect(periodOf('Books', 'month')).toBeUndefined()
  })
})
