import { describe, expect, it } from 'vitest'
import { ApiError } from '../../errors.js'
import type { DashboardFilter } from '../../query/document.js'
import type { DashboardViewRow } from '../../store/schema.js'
import { runtimeView, savedView, viewFilters } from './view-shape.js'

const filters: DashboardFilter[] = [
  { name: 'country', label: 'Country', type: 'multi-select', table: 's.customers', column: 'country' },
  { name: 'status', label: 'Order status', type: 'multi-select', table: 's.orders', column: 'status' },
  { name: 'period', type: 'date-range', table: 's.orders', column: 'created_at' },
]
const none = () => false
const hideStatus = (f: { name: string }) => f.name === 'status'

const message = (run: () => unknown) => {
  try {
    run()
  } catch (err) {
    if (err instanceof ApiError) return `${err.status} ${err.code} ${err.message}`
    throw err
  }
  return 'no error'
}

describe('viewFilters', () => {
  it('keys the values by the filters’ names, matching names or labels case-insensitively', () => {
    expect(viewFilters(filters, none, { COUNTRY: ['DE'], ' order status ': ['paid'], period: 'Last 90 days' })).toEqual(
      {
        country: ['DE'],
        status: ['paid'],
        period: 'Last 90 days',
      },
    )
  })

  it('a hidden filter is refused exactly as a filter that does not exist', () => {
    expect(message(() => viewFilters(filters, hideStatus, { status: ['paid'] }))).toBe(
      '400 INVALID_REQUEST_BODY filters: no filter named "status"',
    )
    expect(message(() => viewFilters(filters, hideStatus, { 'Order status': ['paid'] }))).toBe(
      '400 INVALID_REQUEST_BODY filters: no filter named "Order status"',
    )
    expect(message(() => viewFilters(filters, none, { nope: 1 }))).toBe(
      '400 INVALID_REQUEST_BODY filters: no filter named "nope"',
    )
  })

  it('refuses two keys naming one filter', () => {
    expect(message(() => viewFilters(filters, none, { country: ['DE'], Country: ['FR'] }))).toMatch(
      /^400 INVALID_REQUEST_BODY filters: "Country" names filter country a second time$/,
    )
  })
})

describe('runtimeView', () => {
  const row = (over: Partial<DashboardViewRow> = {}): DashboardViewRow => ({
    view_id: 'v_1',
    dashboard_row_id: 'd',
    data_app_id: 'a',
    client_id: 'acme',
    user_identifier: '',
    name: 'Mine',
    filters: JSON.stringify({ country: ['DE'], status: ['paid'], gone: 1 }),
    layout: null,
    created_at: 'now',
    ...over,
  })

  it('leaves out filters the dashboard no longer has or the token hides; no layout when none was saved', () => {
    expect(runtimeView(savedView(row()), filters, hideStatus, ['a'])).toEqual({
      viewId: 'v_1',
      name: 'Mine',
      filters: { country: ['DE'] },
    })
  })

  it('a saved layout is the effective one for the metrics the token sees', () => {
    const layout = JSON.stringify([
      { metricId: 'gone', x: 0, y: 0, w: 12, h: 9 },
      { metricId: 'a', x: 0, y: 9, w: 12, h: 2 },
    ])
    expect(runtimeView(savedView(row({ layout })), filters, none, ['a', 'b']).layout).toEqual([
      // the gone metric leaves no hole
      { metricId: 'a', x: 0, y: 0, w: 12, h: 2 },
      { metricId: 'b', x: 0, y: 2, w: 6, h: 4 },
    ])
  })
})
