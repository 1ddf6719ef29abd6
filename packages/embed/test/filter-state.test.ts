import { describe, expect, it } from 'vitest'
import type { RuntimeFilter } from '../src/api/types.js'
import { FilterState, type UrlAdapter } from '../src/filter-state.js'
import { result } from './fixtures.js'

const filters: RuntimeFilter[] = [
  { name: 'country', label: 'Country', type: 'multi-select', table: 'c', column: 'country' },
  { name: 'period', type: 'date-range', table: 'o', column: 'created_at', default: 'Last 90 days' },
  { name: 'tenant', type: 'single-select', table: 'c', column: 'tenant', pinned: 'acme' },
  { name: 'secret', type: 'text', table: 'o', column: 'note', isShowOnUrl: false },
]

function fakeUrl(search = ''): UrlAdapter & { writes: string[] } {
  const writes: string[] = []
  return {
    writes,
    get search() {
      return writes.at(-1) ?? search
    },
    replace(next: string) {
      writes.push(next)
    },
  }
}

describe('FilterState', () => {
  it('opens with pinned, URL and default values, and writes pinned ones to the URL', () => {
    const url = fakeUrl('?token=x&country=%5B%22DE%22%5D&secret=s')
    const state = new FilterState()
    state.open(filters, true, url)
    expect(state.values).toEqual({ country: ['DE'], period: 'Last 90 days', tenant: 'acme' })
    expect(state.dashboardFilter).toEqual({ country: ['DE'] })
    expect(new URLSearchParams(url.search).get('tenant')).toBe('acme')
    expect(new URLSearchParams(url.search).get('token')).toBe('x')
  })

  it('a change updates the URL and what queries send; a no-op change reports false', () => {
    const url = fakeUrl()
    const state = new FilterState()
    state.open(filters, true, url)
    expect(state.set('period', 'This year')).toBe(true)
    expect(state.set('period', 'this year')).toBe(false)
    expect(state.set('secret', 'gift')).toBe(true)
    expect(state.dashboardFilter).toEqual({ period: 'This year', secret: 'gift' })
    const params = new URLSearchParams(url.search)
    expect(params.get('period')).toBe('This year')
    expect(params.has('secret')).toBe(false)
    expect(state.canReset).toBe(true)
    expect(state.reset()).toBe(true)
    expect(state.dashboardFilter).toBeUndefined()
    expect(new URLSearchParams(url.search).has('period')).toBe(false)
    expect(state.reset()).toBe(false)
  })

  it('refuses changes to pinned filters, unknown filters and read-only dashboards', () => {
    const state = new FilterState()
    state.open(filters, true, undefined)
    expect(state.set('tenant', 'globex')).toBe(false)
    expect(state.set('nope', 'x')).toBe(false)
    const readOnly = new FilterState()
    readOnly.open(filters, false, fakeUrl('?country=%5B%22DE%22%5D'))
    expect(readOnly.values.country).toBeUndefined()
    expect(readOnly.set('country', ['FR'])).toBe(false)
    expect(readOnly.dashboardFilter).toBeUndefined()
  })

  it('clears a filter given an empty value', () => {
    const state = new FilterState()
    state.open(filters, true, undefined)
    state.set('country', ['DE'])
    expect(state.set('country', [])).toBe(true)
    expect(state.values.country).toBeUndefined()
  })

  it('keeps chosen values across a reload of the same filters', () => {
    const state = new FilterState()
    state.open(filters, true, undefined)
    state.set('country', ['FR'])
    state.open(filters, true, undefined)
    expect(state.values.country).toEqual(['FR'])
  })

  it('offers the values seen in results, plus the chosen ones', () => {
    const state = new FilterState()
    state.open(filters, true, undefined)
    state.remember(result([{ country: 'FR' }, { country: 'DE' }], [['country', 'string']]))
    state.remember(result([{ country: 'BR' }], [['country', 'string']]))
    state.set('country', ['Atlantis'])
    expect(state.optionsFor(filters[0]!)).toEqual(['Atlantis', 'BR', 'DE', 'FR'])
  })
})
