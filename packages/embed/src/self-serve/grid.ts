import type { LayoutItem } from '../api/types.js'

/**
 * The 12-column grid's rules for editing a layout, pure (no DOM): move and resize an item,
 * push the items it lands on out of its way, then compact every item upwards, so a layout
 * never has two items overlapping and never a hole a card could rise into. Same model as
 * react-grid-layout's vertical compaction: an item dropped over another one that has room
 * above the dropped item swaps with it; otherwise the other one moves below.
 */

export const COLUMNS = 12
/** The server's limit on a layout item's height (rows). */
export const MAX_H = 40
/** The smallest card a resize makes (a narrower or shorter one cannot show a chart). */
export const MIN_W = 2
export const MIN_H = 2

export type Direction = 'left' | 'right' | 'up' | 'down'

export function collides(a: LayoutItem, b: LayoutItem): boolean {
  return a.metricId !== b.metricId && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
}

const firstHit = (placed: readonly LayoutItem[], item: LayoutItem) => placed.find((p) => collides(p, item))

/** Reading order: row, then column (also the order of the one-column layout on narrow screens). */
export const byPosition = (a: LayoutItem, b: LayoutItem): number => a.y - b.y || a.x - b.x

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi)

/** Moves `item` down until it overlaps none of `placed`. */
function pushBelow(placed: readonly LayoutItem[], item: LayoutItem): LayoutItem {
  let at = item
  for (let hit = firstHit(placed, at); hit; hit = firstHit(placed, at)) at = { ...at, y: hit.y + hit.h }
  return at
}

/** Every item as high as it goes, in reading order, never over another; sorted in reading order. */
export function compact(layout: readonly LayoutItem[]): LayoutItem[] {
  const placed: LayoutItem[] = []
  for (const item of [...layout].sort(byPosition)) {
    let at = pushBelow(placed, item)
    while (at.y > 0 && !firstHit(placed, { ...at, y: at.y - 1 })) at = { ...at, y: at.y - 1 }
    placed.push(at)
  }
  return placed.sort(byPosition)
}

/**
 * The layout with `fixed` where the user put it: every other item (in reading order) rises
 * as far as it can, and one that still lands on `fixed` goes right above it when there is
 * room there (a swap), else below whatever it lands on. Then the whole layout is compacted.
 */
function settle(layout: readonly LayoutItem[], fixed: LayoutItem): LayoutItem[] {
  const placed: LayoutItem[] = [fixed]
  for (const item of layout.filter((i) => i.metricId !== fixed.metricId).sort(byPosition)) {
    let at = item
    while (at.y > 0 && !firstHit(placed, { ...at, y: at.y - 1 })) at = { ...at, y: at.y - 1 }
    if (firstHit(placed, at)) {
      const above = { ...at, y: fixed.y - at.h }
      at = collides(at, fixed) && above.y >= 0 && !firstHit(placed, above) ? above : pushBelow(placed, at)
    }
    placed.push(at)
  }
  return compact(placed)
}

/** `metricId` moved to column `x`, row `y` (clamped to the grid), the others out of its way. */
export function moveItem(layout: readonly LayoutItem[], metricId: string, x: number, y: number): LayoutItem[] {
  const item = layout.find((i) => i.metricId === metricId)
  if (!item) return [...layout]
  return settle(layout, { ...item, x: clamp(Math.round(x), 0, COLUMNS - item.w), y: Math.max(0, Math.round(y)) })
}

/** `metricId` resized to `w` columns by `h` rows (clamped: MIN_W…to the grid's edge, MIN_H…MAX_H). */
export function resizeItem(layout: readonly LayoutItem[], metricId: string, w: number, h: number): LayoutItem[] {
  const item = layout.find((i) => i.metricId === metricId)
  if (!item) return [...layout]
  // an item already under the minimum (a company layout may have one) is never made larger by a shrink
  const width = clamp(Math.round(w), Math.min(MIN_W, item.w), COLUMNS - item.x)
  const height = clamp(Math.round(h), Math.min(MIN_H, item.h), MAX_H)
  if (width === item.w && height === item.h) return [...layout]
  return settle(layout, { ...item, w: width, h: height })
}

/** Whether two layouts put every item in the same place. */
export function sameLayout(a: readonly LayoutItem[], b: readonly LayoutItem[]): boolean {
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
export function stepMove(layout: readonly LayoutItem[], metricId: string, direction: Direction): LayoutItem[] {
  const item = layout.find((i) => i.metricId === metricId)
  if (!item) return [...layout]
  if (direction === 'left' || direction === 'right') {
    const x = clamp(item.x + (direction === 'left' ? -1 : 1), 0, COLUMNS - item.w)
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
export function stepResize(layout: readonly LayoutItem[], metricId: string, direction: Direction): LayoutItem[] {
  const item = layout.find((i) => i.metricId === metricId)
  if (!item) return [...layout]
  const dw = direction === 'left' ? -1 : direction === 'right' ? 1 : 0
  const dh = direction === 'up' ? -1 : direction === 'down' ? 1 : 0
  return resizeItem(layout, metricId, item.w + dw, item.h + dh)
}
