/**
 * The dashboard grid's rules, one copy for the server (the layout the load returns, the checks
 * on a saved one) and the web component (placing cards, the layout editor). Plain values and
 * pure functions, no TypeBox: the web component bundles this module (`@strata/contract/grid`).
 *
 * The grid has 12 columns; a layout never has two items overlapping and never a hole a card
 * could rise into (vertical compaction, as react-grid-layout's): every item sits as high as the
 * items above it allow, so removing a card lets the ones below it rise into its place. An item
 * never passes one above it that shares a column, so the user's order is kept. A card removed
 * from a layout (hidden, archived, gone from the document) leaves no hole beside the cards
 * either: those to its right on its rows slide left into its place (closeGaps). The layout
 * editor's moves and resizes are in grid-editing.ts (only the lazily loaded editor needs them).
 */

/** One card on the grid: 0-based column and row, width in columns, height in rows. */
export interface GridItem {
  readonly metricId: string
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
}

export const GRID_COLUMNS = 12
/** The tallest card (rows). */
export const MAX_CARD_HEIGHT = 40
/** The most items a layout holds. */
export const MAX_LAYOUT_ITEMS = 500
/** A metric a layout lacks gets a card of half the grid's width, two per row. */
export const NEW_CARD_WIDTH = 6
export const NEW_CARD_HEIGHT = 4

export function collides(a: GridItem, b: GridItem): boolean {
  return a.metricId !== b.metricId && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
}

/** The first of `placed` that `item` overlaps. */
export const firstHit = (placed: readonly GridItem[], item: GridItem) => placed.find((p) => collides(p, item))

/** Reading order: row, then column (also the order of the one-column layout on narrow screens). */
export const byPosition = (a: GridItem, b: GridItem): number => a.y - b.y || a.x - b.x

export const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi)

/** Moves `item` down until it overlaps none of `placed`. */
export function pushBelow(placed: readonly GridItem[], item: GridItem): GridItem {
  let at = item
  for (let hit = firstHit(placed, at); hit; hit = firstHit(placed, at)) at = { ...at, y: hit.y + hit.h }
  return at
}

/** Every item as high as it goes, in reading order, never over another; sorted in reading order. */
export function compact<T extends GridItem>(layout: readonly T[]): T[] {
  const placed: T[] = []
  for (const item of [...layout].sort(byPosition)) {
    let at = pushBelow(placed, item) as T
    while (at.y > 0 && !firstHit(placed, { ...at, y: at.y - 1 })) at = { ...at, y: at.y - 1 }
    placed.push(at)
  }
  return placed.sort(byPosition)
}

const int = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? Math.floor(v) : fallback)

/** An item forced onto the grid: integers, inside the 12 columns, at least one cell. */
export function clampToGrid(item: GridItem): GridItem {
  const x = clamp(int(item.x, 0), 0, GRID_COLUMNS - 1)
  return {
    metricId: item.metricId,
    x,
    y: Math.max(int(item.y, 0), 0),
    w: clamp(int(item.w, NEW_CARD_WIDTH), 1, GRID_COLUMNS - x),
    h: clamp(int(item.h, NEW_CARD_HEIGHT), 1, MAX_CARD_HEIGHT),
  }
}

/**
 * Where a new card goes: the first half-width slot after the last card in reading order that no
 * card covers (beside the last card when it leaves half a row free, else below).
 */
function nextSlot(placed: readonly GridItem[], metricId: string): GridItem {
  const last = placed.length > 0 ? [...placed].sort(byPosition)[placed.length - 1] : undefined
  const startY = last?.y ?? 0
  const startX = last ? last.x + last.w : 0
  const bottom = Math.max(0, ...placed.map((i) => i.y + i.h))
  for (let y = startY; y <= bottom; y++) {
    for (let x = 0; x + NEW_CARD_WIDTH <= GRID_COLUMNS; x += NEW_CARD_WIDTH) {
      if (y === startY && x < startX) continue
      const slot = { metricId, x, y, w: NEW_CARD_WIDTH, h: NEW_CARD_HEIGHT }
      if (!firstHit(placed, slot)) return slot
    }
  }
  return { metricId, x: 0, y: bottom, w: NEW_CARD_WIDTH, h: NEW_CARD_HEIGHT }
}

const rowsMeet = (a: GridItem, b: GridItem) => a.y < b.y + b.h && b.y < a.y + a.h
const columnsMeet = (a: GridItem, b: GridItem) => a.x < b.x + b.w && b.x < a.x + a.w

/**
 * Whether `item` at its new place keeps the user's vertical order with every card of `laid` it
 * shares columns with there and shared columns with at first (`first`: metricId → the item's
 * place before any slide): the one that was above stays above.
 */
function keepsColumnOrder(laid: readonly GridItem[], first: ReadonlyMap<string, GridItem>, item: GridItem): boolean {
  const item0 = first.get(item.metricId)
  if (!item0) return true
  return laid.every((o) => {
    const o0 = first.get(o.metricId)
    if (o.metricId === item.metricId || !o0 || !columnsMeet(o0, item0) || !columnsMeet(o, item)) return true
    return o0.y < item0.y === o.y < item.y
  })
}

/**
 * `layout` (compacted) with the sideways holes closed: each item of `sliding` (metricId → the
 * cards that stood left of it on its rows), in reading order, slides left as far as it goes
 * without overlapping another card, passing one of those (their order is the user's) or coming
 * into columns where it would be on the wrong side of a card it shared columns with at first,
 * then the layout is compacted again, until nothing moves. The last rule matters because a card
 * that slid away leaves the one below it free to rise past its row; sliding back under or over
 * it would turn the user's order upside down. Compaction keeps the order of the cards that share
 * columns, so with the slides checked the whole result keeps it. Items only ever move up or
 * left, so this ends. Items not in `sliding` keep their column: a hole the user or the company
 * left on purpose stays. Sorted in reading order.
 */
export function closeGaps<T extends GridItem>(
  layout: readonly T[],
  sliding: ReadonlyMap<string, readonly string[]>,
): T[] {
  let laid = compact(layout)
  const first = new Map<string, GridItem>(laid.map((i) => [i.metricId, i]))
  const fits = (item: GridItem) => !firstHit(laid, item) && keepsColumnOrder(laid, first, item)
  for (let moved = sliding.size > 0; moved; ) {
    moved = false
    for (let n = 0; n < laid.length; n++) {
      let at = laid[n] as T
      const lefts = sliding.get(at.metricId)
      if (!lefts) continue
      const floor = Math.max(0, ...laid.filter((b) => lefts.includes(b.metricId)).map((b) => b.x + b.w))
      while (at.x > floor && fits({ ...at, x: at.x - 1 })) at = { ...at, x: at.x - 1 }
      if (at !== laid[n]) {
        laid[n] = at
        moved = true
      }
    }
    if (moved) laid = compact(laid)
  }
  return laid
}

/**
 * The items of `kept` to the right of a removed item on a row they share (they may close its
 * hole), each with the cards of `kept` left of it on its rows (it never passes them).
 */
function besideRemoved(kept: readonly GridItem[], removed: readonly GridItem[]): Map<string, string[]> {
  const sliding = new Map<string, string[]>()
  for (const k of kept) {
    if (!removed.some((r) => r.x + r.w <= k.x && rowsMeet(r, k))) continue
    sliding.set(
      k.metricId,
      kept.filter((b) => b.x < k.x && rowsMeet(b, k)).map((b) => b.metricId),
    )
  }
  return sliding
}

/**
 * The layout a dashboard shows: `base` without the metrics not in `visible` (and without a
 * metric's second item), each item forced onto the grid; the cards beside a removed one slide
 * left into its place (closeGaps); every visible metric it lacks gets a half-width card after
 * the last one, two per row, in `visible` order; then compacted, so a removed card leaves no
 * hole above or beside the others. Sorted in reading order.
 */
export function effectiveLayout(base: readonly GridItem[], visible: readonly string[]): GridItem[] {
  const shown = new Set(visible)
  const placed: GridItem[] = []
  const removed: GridItem[] = []
  const seen = new Set<string>()
  for (const item of base) {
    if (seen.has(item.metricId)) continue
    if (!shown.has(item.metricId)) {
      removed.push(clampToGrid(item))
      continue
    }
    seen.add(item.metricId)
    placed.push(clampToGrid(item))
  }
  const laid = closeGaps(placed, besideRemoved(placed, removed))
  for (const metricId of visible) {
    if (seen.has(metricId)) continue
    seen.add(metricId)
    laid.push(nextSlot(laid, metricId))
  }
  return compact(laid)
}
