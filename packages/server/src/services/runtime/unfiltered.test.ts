import { describe, expect, it } from 'vitest'
import { metric, model } from '../../../test/fixtures/query.js'
import { unfilteredFilters } from './unfiltered.js'

describe('unfilteredFilters', () => {
  const sql = metric(undefined, { sql: 'select status from orders', dashboardFilters: ['status', 'period'] })
  it('lists the filters a metric does not take', () => {
    const filters = [
      { name: 'status', table: 'public.orders' },
      { name: 'country', table: 'public.countries' },
      { name: 'what', table: 'public.audit' },
    ]
    expect(unfilteredFilters(sql, filters, model())).toEqual(['country', 'what'])
    const byStatus = metric({ from: 'orders', measures: [{ name: 'n', aggregate: 'count' }] })
    // orders reaches countries through customers; audit is reached by nothing
    expect(unfilteredFilters(byStatus, filters, model())).toEqual(['what'])
    expect(unfilteredFilters(byStatus, filters, undefined)).toEqual([])
  })
})
