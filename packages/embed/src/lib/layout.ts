import type { LayoutItem } from '../api/types.js'

export const COLUMNS = 12
const DEFAULT_W = 6
const DEFAULT_H = 4

export interface Placement {
  readonly metricId: string
  /** 0-based column and row; width in columns, height in rows. */
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
}

const int = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? Math.floor(v) : fallback)

/**
 * Where each metric goes on the 12-column grid, in reading order (row, then column), which is
 * also the order of the one-column layout on narrow screens. Layout items are clamped to the
 * grid; metrics without one are appended below, two per row.
 */
export function placeMetrics(layout: readonly LayoutItem[], metricIds: readonly string[]): Placement[] {
  const visible = new Set(metricIds)
  const placed = new Map<string, Placement>()
  for (const item of layout) {
    if (!visible.has(item.metricId) || placed.has(item.metricId)) continue
    const x = Math.min(Math.max(int(item.x, 0), 0), COLUMNS - 1)
    const w = Math.min(Math.max(int(item.w, DEFAULT_W), 1), COLUMNS - x)
    placed.set(item.metricId, {
      metricId: item.metricId,
      x,
      y: Math.max(int(item.y, 0), 0),
      w,
      h: Math.max(int(item.h, DEFAULT_H), 1),
    })
  }
  let nextY = Math.max(0, ...[...placed.values()].map((p) => p.y + p.h))
  let column = 0
  for (const metricId of metricIds) {
    if (placed.has(metricId)) continue
    placed.set(metricId, { metricId, x: column * DEFAULT_W, y: nextY, w: DEFAULT_W, h: DEFAULT_H })
    column = (column + 1) % (COLUMNS / DEFAULT_W)
    if (column === 0) nextY += DEFAULT_H
  }
  return [...placed.values()].sort((a, b) => a.y - b.y || a.x - b.x)
}
