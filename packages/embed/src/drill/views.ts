import { html, nothing, type TemplateResult } from 'lit'
import type { RuntimeMetric } from '../api/types.js'
import type { DrillChip, DrillLevel } from '../drill-state.js'
import { GRAIN_PLURAL } from './periods.js'
import { drillStyles } from './styles.js'

/** One choice of the drill menu ("Filter by Category = Books"); `id` is its `data-action`. */
export interface MenuItem {
  readonly id: string
  readonly label: string
  run(): void
}

/** The menu while it is open: where it was asked for, what it offers, what gets focus back. */
export interface OpenMenu {
  readonly metricId: string
  readonly x: number
  readonly y: number
  readonly title: string
  readonly items: readonly MenuItem[]
  readonly opener: HTMLElement | null
}

const MENU_WIDTH = 260

/** A drilled card's breadcrumbs ("All months › March 2026"); `up(depth)` goes back to a level. */
export function trailView(
  metric: RuntimeMetric,
  levels: readonly DrillLevel[],
  up: (depth: number) => void,
): TemplateResult | typeof nothing {
  const first = levels[0]
  if (!first) return nothing
  const top = metric.timeGrains?.[first.dimension]
  const topLabel = `All ${top && top in GRAIN_PLURAL ? GRAIN_PLURAL[top as keyof typeof GRAIN_PLURAL] : 'periods'}`
  const crumbs = [topLabel, ...levels.map((l) => l.label)]
  return html`${drillStyles}<nav class="drill-trail" part="drill-breadcrumbs" aria-label="Drill-down of ${metric.name}">
    <ol>
      ${crumbs.map((c, i) =>
        i === crumbs.length - 1
          ? html`<li><span aria-current="page">${c}</span></li>`
          : html`<li>
              <button type="button" part="drill-breadcrumb" @click=${() => up(i)}>${c}</button
              ><span class="sep" aria-hidden="true">›</span>
            </li>`,
      )}
    </ol>
    <span class="hint">Esc: up one level</span>
  </nav>`
}

/** The row of chips ("Drilled into Status: paid ×"); `remove(i)` is a chip's ×. Labels are text, never markup. */
export function chipsView(
  chips: readonly DrillChip[],
  remove: (index: number) => void,
): TemplateResult | typeof nothing {
  if (chips.length === 0) return nothing
  return html`${drillStyles}<div class="drill-chips" part="drill-chips" role="group" aria-label="Drill-down filters">
    <span class="drill-chips-label">Drilled into</span>
    ${chips.map(
      (c, i) => html`<button
        type="button"
        class="drill-chip"
        part="drill-chip"
        aria-label="Remove drill filter ${c.label}"
        @click=${() => remove(i)}
      >
        <span>${c.label}</span><span aria-hidden="true">×</span>
      </button>`,
    )}
  </div>`
}

/** The open menu, kept inside the viewport, and the live region that reads the focused point. */
export function menuView(
  o: OpenMenu | undefined,
  announce: string,
  onKey: (e: KeyboardEvent) => void,
  choose: (item: MenuItem) => void,
): TemplateResult {
  const left = o ? Math.max(8, Math.min(o.x, window.innerWidth - MENU_WIDTH - 8)) : 0
  const top = o ? Math.max(8, Math.min(o.y + 8, window.innerHeight - (56 + o.items.length * 44))) : 0
  return html`${drillStyles}<span class="sr-only" role="status" aria-live="polite">${announce}</span>
    ${
      o
        ? html`<div
          class="drill-menu"
          part="drill-menu"
          role="menu"
          aria-label=${o.title}
          style="left:${left}px;top:${top}px"
          @keydown=${onKey}
        >
          <div class="drill-menu-title" aria-hidden="true">${o.title}</div>
          ${o.items.map(
            (item) => html`<button
              type="button"
              role="menuitem"
              part="drill-menu-item"
              data-action=${item.id}
              tabindex="-1"
              @click=${() => choose(item)}
            >
              ${item.label}
            </button>`,
          )}
        </div>`
        : nothing
    }`
}
