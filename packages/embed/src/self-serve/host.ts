import type { RuntimeClient } from '../api/client.js'
import type { LayoutItem, RuntimeEmbed, SavedView } from '../api/types.js'
import type { Menus } from '../menu-controller.js'

/** What the element lends the edit-layout mode and the views menu (the lazily loaded module). */
export interface LayoutViewsHost {
  /** The element's shadow root: where cards, handles and menus are. */
  readonly renderRoot: ParentNode
  readonly menus: Menus
  client(): RuntimeClient | undefined
  embed(): RuntimeEmbed | undefined
  /** Every card's place as shown now, in reading order. */
  placements(): LayoutItem[]
  /** The filter values the end user chose (pinned filters left out). */
  filterValues(): Record<string, unknown>
  /** Whether the end user may change filters at all. */
  readonly filtersEditable: boolean
  /** Sets every end-user filter (absent: its default) and queries again. */
  applyFilters(values: Readonly<Record<string, unknown>>): void
  /** The layout in effect from now on, and whether it is customised (saved by the tenant or user). */
  setLayout(layout: readonly LayoutItem[], customLayout: boolean): void
  setViews(views: readonly SavedView[]): void
  /** Reports a failed call (`strata-error`). */
  fail(e: unknown): void
  requestUpdate(): void
  readonly updateComplete: Promise<boolean>
}
