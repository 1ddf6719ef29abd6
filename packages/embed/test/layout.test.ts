import { describe, expect, it } from 'vitest'
import { placeMetrics } from '../src/lib/layout.js'

describe('placeMetrics', () => {
  it('keeps layout items in reading order, dropping metrics not shown', () => {
    const layout = [
      { metricId: 'b', x: 6, y: 0, w: 6, h: 4 },
      { metricId: 'c', x: 0, y: 4, w: 12, h: 3 },
      { metricId: 'a', x: 0, y: 0, w: 6, h: 4 },
      { metricId: 'gone', x: 0, y: 9, w: 12, h: 3 },
    ]
    expect(placeMetrics(layout, ['a', 'b', 'c']).map((p) => p.metricId)).toEqual(['a', 'b', 'c'])
  })
  it('clamps items to the 12 columns', () => {
    expect(placeMetrics([{ metricId: 'a', x: 10, y: -2, w: 8, h: 0 }], ['a'])).toEqual([
      { metricId: 'a', x: 10, y: 0, w: 2, h: 1 },
    ])
    expect(placeMetrics([{ metricId: 'a', x: 40, y: 0, w: 3, h: 2 }], ['a'])[0]).toMatchObject({ x: 11, w: 1 })
  })
  it('appends metrics without a layout item below, two per row', () => {
    const placed = placeMetrics([{ metricId: 'a', x: 0, y: 0, w: 12, h: 2 }], ['a', 'b', 'c', 'd'])
    expect(placed).toEqual([
      { metricId: 'a', x: 0, y: 0, w: 12, h: 2 },
      { metricId: 'b', x: 0, y: 2, w: 6, h: 4 },
      { metricId: 'c', x: 6, y: 2, w: 6, h: 4 },
      { metricId: 'd', x: 0, y: 6, w: 6, h: 4 },
    ])
  })
  it('handles no layout at all', () => {
    expect(placeMetrics([], ['x'])).toEqual([{ metricId: 'x', x: 0, y: 0, w: 6, h: 4 }])
  })
})
