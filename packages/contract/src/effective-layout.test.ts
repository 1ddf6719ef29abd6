import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { propertyRuns } from '../test/property-runs.js'
import { byPosition, collides, compact, effectiveLayout, GRID_COLUMNS, type GridItem } from './grid.js'

const item = (metricId: string, x: number, y: number, w: number, h: number): GridItem => ({ metricId, x, y, w, h })

const overlaps = (layout: readonly GridItem[]) =>
  layout.flatMap((a) => layout.filter((b) => a.metricId < b.metricId && collides(a, b)).map((b) => [a, b]))

/** Whether two items share a column. */
const sameColumns = (a: GridItem, b: GridItem) => a.x < b.x + b.w && b.x < a.x + a.w
/** Whether two items share a row. */
const rowsMeet = (a: GridItem, b: GridItem) => a.y < b.y + b.h && b.y < a.y + a.h

describe('effectiveLayout', () => {
  it('keeps a compact layout of visible metrics as it is, in reading order', () => {
    const base = [item('b', 6, 0, 6, 3), item('a', 0, 0, 6, 3)]
    expect(effectiveLayout(base, ['a', 'b'])).toEqual([item('a', 0, 0, 6, 3), item('b', 6, 0, 6, 3)])
  })

  it('drops metrics the token does not see, and a second item of one metric', () => {
    const base = [item('a', 0, 0, 4, 2), item('gone', 4, 0, 4, 2), item('a', 8, 0, 4, 2)]
    expect(effectiveLayout(base, ['a'])).toEqual([item('a', 0, 0, 4, 2)])
  })

  it('a removed card leaves no hole: the cards below it rise into its place', () => {
    const base = [item('a', 0, 0, 6, 4), item('b', 6, 0, 6, 4), item('c', 0, 4, 6, 4), item('d', 0, 8, 12, 3)]
    // a hidden: c rises to the top, d rises until it meets c
    expect(effectiveLayout(base, ['b', 'c', 'd'])).toEqual([
      item('c', 0, 0, 6, 4),
      item('b', 6, 0, 6, 4),
      item('d', 0, 4, 12, 3),
    ])
  })

  it('a hidden card in the middle of a row leaves no hole: the cards to its right slide left', () => {
    const base = [item('a', 0, 0, 4, 3), item('b', 4, 0, 4, 3), item('c', 8, 0, 4, 3), item('d', 0, 3, 12, 2)]
    expect(effectiveLayout(base, ['a', 'c', 'd'])).toEqual([
      item('a', 0, 0, 4, 3),
      item('c', 4, 0, 4, 3),
      item('d', 0, 3, 12, 2),
    ])
  })

  it('a hidden first card of a row: the rest of the row slides left in its order, the wide card below stays', () => {
    const base = [item('a', 0, 0, 6, 4), item('b', 6, 0, 3, 4), item('c', 9, 0, 3, 4), item('d', 0, 4, 12, 3)]
    expect(effectiveLayout(base, ['b', 'c', 'd'])).toEqual([
      item('b', 0, 0, 3, 4),
      item('c', 3, 0, 3, 4),
      item('d', 0, 4, 12, 3),
    ])
  })

  it('a metric the document no longer has leaves no hole beside a taller card', () => {
    // a tall card on the left, two stacked on the right; the company removes the top right one
    const base = [item('tall', 0, 0, 4, 8), item('gone', 4, 0, 8, 4), item('x', 4, 4, 4, 4), item('y', 8, 4, 4, 4)]
    expect(effectiveLayout(base, ['tall', 'x', 'y'])).toEqual([
      item('tall', 0, 0, 4, 8),
      item('x', 4, 0, 4, 4),
      item('y', 8, 0, 4, 4),
    ])
  })

  it('keeps a hole nothing was removed from (a layout made that way on purpose)', () => {
    const base = [item('a', 6, 0, 6, 3), item('b', 0, 3, 12, 2), item('c', 8, 5, 4, 3)]
    expect(effectiveLayout(base, ['a', 'b', 'c'])).toEqual(base)
  })

  it('places missing metrics two per row at half width, in visible order, after the last card', () => {
    const base = [item('a', 0, 0, 12, 3), item('b', 0, 3, 4, 5)]
    expect(effectiveLayout(base, ['c', 'a', 'd', 'b', 'e'])).toEqual([
      item('a', 0, 0, 12, 3),
      item('b', 0, 3, 4, 5),
      // beside b: the first half-width slot after it is columns 6–11
      item('c', 6, 3, 6, 4),
      // then the first free half-width slot after c, and after d (they rise as the editor would)
      item('d', 6, 7, 6, 4),
      item('e', 0, 8, 6, 4),
    ])
  })

  it('a new metric goes beside a half-width last card, not below it', () => {
    const base = [item('a', 0, 0, 12, 4), item('b', 0, 4, 6, 4)]
    expect(effectiveLayout(base, ['a', 'b', 'new'])).toEqual([...base, item('new', 6, 4, 6, 4)])
  })

  it('an empty layout places every visible metric from the top, two per row', () => {
    expect(effectiveLayout([], ['a', 'b', 'c'])).toEqual([
      item('a', 0, 0, 6, 4),
      item('b', 6, 0, 6, 4),
      item('c', 0, 4, 6, 4),
    ])
  })

  it('a card below another in its columns never ends above it, though the one above slid away first', () => {
    // Found by the property below. m7 stood above m1 in column 5. Removing the cards on the left
    // lets m7 slide to column 0; m1 then rises to the top row (nothing above it in column 5 any
    // more) and slides left: it stops at column 2, before it would come above m7 in column 1.
    const base = [
      item('m4', 0, 0, 1, 2),
      item('m3', 4, 0, 1, 1),
      item('m7', 4, 1, 2, 1),
      item('m5', 0, 2, 1, 1),
      item('m2', 1, 2, 5, 1),
      item('m6', 0, 3, 1, 1),
      item('m1', 5, 3, 1, 1),
      item('m0', 0, 4, 1, 1),
      item('m8', 0, 5, 5, 1),
    ]
    const shown = effectiveLayout(base, ['m3', 'm7', 'm1', 'm8'])
    // before the fix m1 slid on to column 1, above m7 in the column they share
    expect(shown.find((i) => i.metricId === 'm1')?.x).toBe(2)
    expect(shown).toEqual([
      item('m3', 0, 0, 1, 1),
      item('m1', 2, 0, 1, 1),
      item('m7', 0, 1, 2, 1),
      item('m8', 0, 2, 5, 1),
    ])
  })

  it('forces items onto the grid', () => {
    expect(effectiveLayout([item('a', 10, -2, 8, 0)], ['a'])).toEqual([item('a', 10, 0, 2, 1)])
    expect(effectiveLayout([item('a', 40, 0, 3, 99)], ['a'])).toEqual([item('a', 11, 0, 1, 40)])
  })
})

describe('effectiveLayout on any layout', () => {
  const layouts = fc
    .array(
      fc.record({
        x: fc.integer({ min: 0, max: 11 }),
        y: fc.integer({ min: 0, max: 40 }),
        w: fc.integer({ min: 1, max: 12 }),
        h: fc.integer({ min: 1, max: 10 }),
      }),
      { maxLength: 14 },
    )
    .map((items) => items.map((i, n) => item(`m${n}`, i.x, i.y, Math.min(i.w, GRID_COLUMNS - i.x), i.h)))
  /** Which metrics of the layout stay visible, and how many new ones there are. */
  const removal = fc.record({ keep: fc.array(fc.boolean(), { minLength: 14, maxLength: 14 }), added: fc.nat(5) })

  it('has no overlap, no hole to rise into, every visible metric once, and keeps the order of cards sharing columns', () => {
    fc.assert(
      fc.property(layouts, removal, (base, { keep, added }) => {
        const start = compact(base)
        const visible = [
          ...start.filter((_, n) => keep[n]).map((i) => i.metricId),
          ...Array.from({ length: added }, (_, n) => `new${n}`),
        ]
        const shown = effectiveLayout(start, visible)
        expect(shown.map((i) => i.metricId).sort()).toEqual([...visible].sort())
        expect(overlaps(shown)).toEqual([])
        // no hole above a card: compacting again moves nothing
        expect(compact(shown)).toEqual([...shown].sort(byPosition))
        for (const i of shown) expect(i.x + i.w).toBeLessThanOrEqual(GRID_COLUMNS)
        const before = new Map(start.map((i) => [i.metricId, i]))
        const removed = start.filter((i) => !visible.includes(i.metricId))
        for (const a of shown) {
          const a0 = before.get(a.metricId)
          // no hole beside a card that stood right of a removed one on its rows: its left column is taken
          // (unless it would pass a card that stood left of it on its row, or, one column further
          // left, come to the wrong side of a card it shared columns with: the user's order wins)
          if (a0 && a.x > 0 && removed.some((r) => r.x + r.w <= a0.x && rowsMeet(r, a0))) {
            const left = { ...a, metricId: '', x: a.x - 1, w: 1 }
            const stepped = { ...a, x: a.x - 1 }
            const taken = shown.some((o) => collides(o, left))
            const wouldPass = shown.some((b) => {
              const b0 = before.get(b.metricId)
              return b0 !== undefined && b0.x < a0.x && rowsMeet(b0, a0) && b.x + b.w > a.x - 1
            })
            const wouldTurnOrder = shown.some((b) => {
              const b0 = before.get(b.metricId)
              return (
                b0 !== undefined &&
                b !== a &&
                sameColumns(b0, a0) &&
                sameColumns(b, stepped) &&
                b0.y < a0.y !== b.y < a.y
              )
            })
            expect(taken || wouldPass || wouldTurnOrder).toBe(true)
          }
          for (const b of shown) {
            const b0 = before.get(b.metricId)
            // the user's order: a card above another in the same columns (before and after) stays above it
            if (a0 && b0 && sameColumns(a0, b0) && sameColumns(a, b) && a0.y < b0.y) expect(a.y).toBeLessThan(b.y)
            // cards side by side on a row keep their left-to-right order while they still share a row
            if (a0 && b0 && rowsMeet(a0, b0) && rowsMeet(a, b) && a0.x < b0.x) expect(a.x).toBeLessThan(b.x)
            // a new card never goes above a card of the layout it shares columns with
            if (a0 && !b0 && sameColumns(a, b)) expect(a.y).toBeLessThan(b.y)
          }
        }
      }),
      propertyRuns(600),
    )
  })
})
