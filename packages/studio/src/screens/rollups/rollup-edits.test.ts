import type { DashboardDocument } from '@strata/contract/document'
import { describe, expect, it } from 'vitest'
import {
  draftOf,
  draftProblem,
  modeOf,
  newDraft,
  problemOf,
  type RollupDraft,
  reasonOf,
  rollupOf,
  withRollups,
} from './rollup-edits.js'

const doc: DashboardDocument = {
  name: 'Sales',
  metrics: [
    {
      metricId: 'revenue',
      name: 'Revenue',
      chart: { type: 'single-value' },
      query: { from: 'public.orders', measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
    },
  ],
}

/** What the Rollups tab holds after an author filled in one rollup. */
const filled: RollupDraft = {
  ...newDraft('public.orders', 'created_at', []),
  name: ' orders_daily ',
  grain: 'week',
  dimensions: ['status', 'public.customers.country'],
  measures: [
    { name: 'orders', aggregate: 'count', column: '' },
    { name: 'revenue', aggregate: 'sum', column: 'amount' },
    { name: 'avg_amount', aggregate: 'avg', column: 'amount' },
  ],
  every: '1h',
  incremental: '7 days',
}

describe('the rollups the studio writes into the company’s document', () => {
  it('equals the document written by hand', () => {
    expect(withRollups(doc, 'declared', [filled])).toEqual({
      name: 'Sales',
      metrics: doc.metrics,
      rollups: [
        {
          name: 'orders_daily',
          from: 'public.orders',
          time: { column: 'created_at', grain: 'week' },
          dimensions: ['status', 'public.customers.country'],
          measures: [
            { name: 'orders', aggregate: 'count' },
            { name: 'revenue', aggregate: 'sum', column: 'amount' },
            { name: 'avg_amount', aggregate: 'avg', column: 'amount' },
          ],
          refresh: { every: '1h', incremental: '7 days' },
        },
      ],
    })
  })

  it('leaves out what the author left empty: no time, no refresh', () => {
    const bare = { ...filled, timeColumn: '', every: '', incremental: '' }
    expect(rollupOf(bare)).toEqual({
      name: 'orders_daily',
      from: 'public.orders',
      dimensions: ['status', 'public.customers.country'],
      measures: filled.measures.map(({ name, aggregate, column }) =>
        column ? { name, aggregate, column } : { name, aggregate },
      ),
    })
  })

  it('writes Automatic as "auto" and None as no rollups key; reads each back as its mode', () => {
    const auto = withRollups(doc, 'auto', [filled])
    expect(auto.rollups).toBe('auto')
    expect(modeOf(auto)).toBe('auto')
    const none = withRollups(auto, 'none', [filled])
    expect('rollups' in none).toBe(false)
    expect(none).toEqual(doc)
    expect(modeOf(none)).toBe('none')
    expect(modeOf(withRollups(doc, 'declared', []))).toBe('declared')
  })

  it('shows a stored rollup in the form as it is, and writes it back unchanged', () => {
    const stored = rollupOf(filled)
    expect(rollupOf(draftOf(stored))).toEqual(stored)
  })

  it('names a new rollup after its table, never twice', () => {
    expect(newDraft('public.orders', '', ['orders_rollup']).name).toBe('orders_rollup_2')
  })

  it('asks for a refresh interval before an incremental window is sent', () => {
    expect(draftProblem([filled, { ...filled, every: ' ' }])).toMatchObject({ index: 1, field: 'refresh.every' })
    expect(draftProblem([filled])).toBeUndefined()
  })
})

describe('the field a refusal names', () => {
  it.each([
    ['importDashboardData.rollups[0].dimensions[1]: no column "colour" in public.orders', 0, 'dimensions'],
    ['importDashboardData.rollups[2].measures[1].column: sum needs a number', 2, 'measures[1].column'],
    ['importDashboardData.rollups[0].time.column: column "status" … not a date or time', 0, 'time.column'],
    ['importDashboardData.rollups[1].refresh.every must match pattern', 1, 'refresh.every'],
    ['importDashboardData.rollups[0].from: no table "nowhere"', 0, 'from'],
    ['importDashboardData.rollups[1].name: two rollups are named "a"', 1, 'name'],
  ])('%s', (message, index, field) => {
    expect(problemOf(message)).toEqual({ index, field })
  })
  it('is none for a refusal about something else', () => {
    expect(problemOf('importDashboardData.metrics[0].query.from: no table')).toBeUndefined()
  })
  it('is shown at the field without its path', () => {
    expect(reasonOf('importDashboardData.rollups[0].measures[1].column: sum needs a number')).toBe('sum needs a number')
  })
})
