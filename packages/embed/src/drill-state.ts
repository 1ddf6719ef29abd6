import type { Drill, DrillFilter, DrillGrain } from './api/types.js'

/** A value the end user drilled on that no dashboard filter holds: a removable chip, for every card. */
export interface DrillChip {
  readonly filter: DrillFilter
  /** What the chip reads: "Category: Books". */
  readonly label: string
}

/** One step down a card's time series: its date dimension at `grain`, within the clicked period. */
export interface DrillLevel {
  readonly dimension: string
  readonly grain: DrillGrain
  readonly filter: DrillFilter
  /** The period clicked, as the breadcrumb reads it ("2026", "March 2026"). */
  readonly label: string
}

/** At most this many chips (the server takes ten drill filters, a card's levels included). */
export const MAX_CHIPS = 6
/** The page URL's search param of the chips (drill/chips-url.ts), beside the filters' own. */
export const DRILL_PARAM = 'strata-drill'
/** At most this many levels on one card (year → quarter → month → week → day). */
const MAX_LEVELS = 4

/**
 * What the end user drilled into (docs/web-component.md#drill-down): chips that filter every
 * card, and per card the levels of its time series. No DOM: the element renders it, the
 * lazily loaded drill module changes it, and each query sends `bodyFor(metricId)`.
 */
export class DrillState {
  private list: readonly DrillChip[] = []
  private readonly levels = new Map<string, readonly DrillLevel[]>()

  get chips(): readonly DrillChip[] {
    return this.list
  }

  levelsOf(metricId: string): readonly DrillLevel[] {
    return this.levels.get(metricId) ?? []
  }

  /** Adds a chip (one per column: a new value replaces the old); false when nothing changed. */
  addChip(chip: DrillChip): boolean {
    const same = (f: DrillFilter) => f.table === chip.filter.table && f.column === chip.filter.column
    const before = this.list.find((c) => same(c.filter))
    if (before && JSON.stringify(before.filter.value) === JSON.stringify(chip.filter.value)) return false
    this.list = [...this.list.filter((c) => !same(c.filter)), chip].slice(-MAX_CHIPS)
    return true
  }

  /** Every chip at once (restored from the URL or the `drills` property). */
  setChips(chips: readonly DrillChip[]): void {
    this.list = chips.slice(-MAX_CHIPS)
  }

  removeChip(index: number): boolean {
    if (index < 0 || index >= this.list.length) return false
    this.list = this.list.filter((_, i) => i !== index)
    return true
  }

  /** One level down on a card. */
  push(metricId: string, level: DrillLevel): boolean {
    const now = this.levelsOf(metricId)
    if (now.length >= MAX_LEVELS) return false
    this.levels.set(metricId, [...now, level])
    return true
  }

  /** Back to `depth` levels on a card (0: as the dashboard shows it); false when already there. */
  truncate(metricId: string, depth: number): boolean {
    const now = this.levelsOf(metricId)
    if (depth >= now.length || depth < 0) return false
    if (depth === 0) this.levels.delete(metricId)
    else this.levels.set(metricId, now.slice(0, depth))
    return true
  }

  /** Everything cleared (a new embed). */
  clear(): void {
    this.list = []
    this.levels.clear()
  }

  /** What a card's query sends as `drill`, or undefined when nothing is drilled. */
  bodyFor(metricId: string): Drill | undefined {
    const levels = this.levelsOf(metricId)
    const filters = [...this.list.map((c) => c.filter), ...levels.map((l) => l.filter)]
    const last = levels.at(-1)
    if (filters.length === 0 && !last) return undefined
    return {
      ...(filters.length ? { filters } : {}),
      ...(last ? { timeGrain: { dimension: last.dimension, grain: last.grain } } : {}),
    }
  }
}
