import { describe, expect, it } from 'vitest'
import { MAX_WARNINGS, readDocument } from './hosted-document.js'

const metric = { metricId: 'revenue', name: 'Revenue', chart: { type: 'single-value' }, sql: 'select 1' }

describe('readDocument', () => {
  it("returns Strata's own document untouched, the same object, with no warning", () => {
    const own = { name: 'Sales', metrics: [metric], layout: [{ metricId: 'revenue', x: 0, y: 0, w: 4, h: 2 }] }
    const read = readDocument(own, 'fallback')
    expect(read.document).toBe(own)
    expect(read.warnings).toEqual([])
  })

  it('leaves anything else to validation when it is not an object', () => {
    expect(readDocument([1], 'x')).toEqual({ document: [1], warnings: [] })
    expect(readDocument(null, 'x')).toEqual({ document: null, warnings: [] })
  })

  it('names a document without a name, gives it no metrics when it has none, and reads a layout key i', () => {
    const read = readDocument(
      {
        metrics: [metric],
        layout: [
          { i: 'revenue', x: 0, y: 0, w: 4, h: 2 },
          { i: 'gone', x: 0, y: 2, w: 4, h: 2 },
        ],
      },
      'acme-copy',
    )
    expect(read.document).toEqual({
      name: 'acme-copy',
      metrics: [metric],
      layout: [{ metricId: 'revenue', x: 0, y: 0, w: 4, h: 2 }],
    })
    expect(read.warnings).toEqual(['importDashboardData.layout[1]: metric gone was not imported; not placed'])
    expect(readDocument({ layout: [], filters: [] }, 'n').document).toEqual({
      name: 'n',
      metrics: [],
      layout: [],
      filters: [],
    })
  })

  it(`lists at most ${MAX_WARNINGS} warnings, then how many more were left out`, () => {
    const many = Object.fromEntries(Array.from({ length: MAX_WARNINGS + 5 }, (_, i) => [`k${i}`, i]))
    const { warnings } = readDocument({ name: 'x', metrics: [], ...many }, 'x')
    expect(warnings).toHaveLength(MAX_WARNINGS + 1)
    expect(warnings[0]).toBe("importDashboardData.k0: not part of Strata's dashboard document; not imported")
    expect(warnings.at(-1)).toBe('… and 5 more left out')
  })
})
