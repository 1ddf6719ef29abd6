/**
 * The layout editor's rules on the dashboard grid (grid.ts): move and resize an item, push the
 * items it lands on out of its way, then compact, so an edited layout never has two items
 * overlapping and never a hole a card could rise into. An item dropped over another one that
 * has room above the dropped item swaps with it; otherwise the other one moves below. Apart
 * from grid.ts so the web component's entry, which only places cards, does not carry them.
 */
import {
  byPosition,
  clamp,
  collides,
  compact,
  firstHit,
  GRID_COLUMNS,
  type GridItem,
  MAX_CARD_HEIGHT,
  pushBelow,
} from './grid.js'

/** The smallest card a resize makes (a narrower or shorter one cannot show a chart). */
export const MIN_CARD_WIDTH = 2
export const MIN_CARD_HEIGHT = 2

export type Direction = 'left' | 'right' | 'up' | 'down'

/**
 * The layout with `fixed` where the user put it: every other item (in reading order) rises
 * as far as it can, and one that still lands on `fixed` goes right above it when there is
 * room there (a swap), else below whatever it lands on. Then the whole layout is compacted.
 */
function settle<T extends GridItem>(layout: readonly T[], fixed: T): T[] {
  const placed: T[] = [fixed]
  for (const item of layout.filter((i) => i.metricId !== fixed.metricId).sort(byPosition)) {
    let at = item
    while (at.y > 0 && !firstHit(placed, { ...at, y: at.y - 1 })) at = { ...at, y: at.y - 1 }
    if (firstHit(placed, at)) {
      const above = { ...at, y: fixed.y - at.h }
      at = collides(at, fixed) && above.y >= 0 && !firstHit(placed, above) ? above : (pushBelow(placed, at) as T)
    }
    placed.push(at)
  }
  return compact(placed)
}

/** `metricId` moved to column `x`, row `y` (clamped to the grid), the others out of its way. */
export function moveItem<T extends GridItem>(layout: readonly T[], metricId: string, x: number, y: number): T[] {
  const item = layout.find((i) => i.metricId === metricId)
  if (!item) return [...layout]
  return settle(layout, { ...item, x: clamp(Math.round(x), 0, GRID_COLUMNS - item.w), y: Math.max(0, Math.round(y)) })
}

/** `metricId` resized to `w` columns by `h` rows (clamped: the minimum…to the grid's edge, the minimum…MAX_CARD_HEIGHT). */
export function resizeItem<T extends GridItem>(layout: readonly T[], metricId: string, w: number, h: number): T[] {
  const item = layout.find((i) => i.metricId === metricId)
  if (!item) return [...layout]
  // an item already under the minimum (a company layout may have one) is never made larger by a shrink
  const width = clamp(Math.round(w), Math.min(MIN_CARD_WIDTH, item.w), GRID_COLUMNS - item.x)
  const height = clamp(Math.round(h), Math.min(MIN_CARD_HEIGHT, item.h), MAX_CARD_HEIGHT)
  if (width === item.w && height === item.h) return [...layout]
  return settle(layout, { ...item, w: width, h: height })
}

/** Whether two layouts put every item in the same place. */
export function sameLayout(a: readonly GridItem[], b: readonly GridItem[]): boolean {
  if (a.length !== b.length) return false
  const at = new Map(b.map((i) => [i.metricId, i]))
  return a.every((i) => {
    const o = at.get(i.metricId)
    return o !== undefined && o.x === i.x && o.y === i.y && o.w === i.w && o.h === i.h
  })
}

/**
 * One keyboard step of a move: a column left or right; up or down, the smallest move that
 * changes the layout (with compaction, one row down is often no change at all: the item
 * swaps with the one below it once it passes it). The same layout when the item cannot go further.
 */
export function stepMove<T extends GridItem>(layout: readonly T[], metricId: string, direction: Direction): T[] {
  const item = layout.find((i) => i.metricId === metricId)
  if (!item) return [...layout]
  if (direction === 'left' || direction === 'right') {
    const x = clamp(item.x + (direction === 'left' ? -1 : 1), 0, GRID_COLUMNS - item.w)
    return x === item.x ? [...layout] : moveItem(layout, metricId, x, item.y)
  }
  const bottom = Math.max(...layout.map((i) => i.y + i.h))
  const sign = direction === 'up' ? -1 : 1
  for (let d = 1; d <= (direction === 'up' ? item.y : bottom - item.y); d++) {
    const next = moveItem(layout, metricId, item.x, item.y + sign * d)
    if (!sameLayout(next, layout)) return next
  }
  return [...layout]
}

/** One keyboard step of a resize: a column narrower or wider, a row shorter or taller. */
export function stepResize<T extends GridItem>(layout: readonly T[], metricId: string, direction: Direction): T[] {
  const item = layout.find((i) => i.metricId === metricId)
  if (!item) return [...layout]
  const dw = direction === 'left' ? -1 : direction === 'right' ? 1 : 0
  const dh = direction === 'up' ? -1 : direction === 'down' ? 1 : 0
  return resizeItem(layout, metricId, item.w + dw, item.h + dh)
}
