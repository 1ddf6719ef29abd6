import { html, type TemplateResult } from 'lit'
import type { MetricState } from '../embed-controller.js'
import { focusByKey } from '../lib/roving-focus.js'
import type { Menus } from '../menu-controller.js'
import { listIcon } from './icons.js'

/** The popup key and the toggle's element id of the metrics panel. */
export const SIDEBAR = 'strata-sidebar-toggle'
const PANEL = 'strata-sidebar'
const itemId = (i: number) => `${PANEL}-item-${i}`

/**
 * The metrics panel's toggle (`permissions.showSideBar`), in the header: a disclosure button
 * (`aria-expanded`, `aria-controls`) that opens the panel and focuses its first entry.
 */
export function renderSidebarToggle(menus: Menus): TemplateResult {
  const open = menus.isOpen(SIDEBAR)
  return html`<button
    type="button"
    id=${SIDEBAR}
    class="button sidebar-toggle"
    part="sidebar-toggle"
    data-menu=${SIDEBAR}
    aria-expanded=${open ? 'true' : 'false'}
    aria-controls=${PANEL}
    @click=${() => (open ? menus.close(true) : menus.show(SIDEBAR, -1, itemId(0)))}
  >
    ${listIcon}<span>Metrics</span>
  </button>`
}

/**
 * The list of metrics, over the grid (never beside it: the grid keeps its full width, nothing
 * moves when it opens). A click scrolls to the metric and focuses its card; ↓/↑/Home/End move
 * between entries; Escape closes it and focus returns to the toggle; so does a click outside.
 */
export function renderSidebar(
  menus: Menus,
  metrics: readonly MetricState[],
  go: (metricId: string) => void,
): TemplateResult {
  const open = menus.isOpen(SIDEBAR)
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      return menus.close(true)
    }
    focusByKey(e, [...(e.currentTarget as HTMLElement).querySelectorAll<HTMLButtonElement>('button')], e.target, false)
  }
  return html`<nav
    class="header-panel sidebar"
    part="sidebar"
    id=${PANEL}
    aria-label="Metrics"
    data-menu=${SIDEBAR}
    ?hidden=${!open}
    @keydown=${onKey}
    @focusout=${(e: FocusEvent) => {
      const nav = e.currentTarget as HTMLElement
      const next = e.relatedTarget as Node | null
      // Tab past the last entry (or out of the panel) closes it; the toggle is part of it
      if (next && !nav.contains(next) && (next as Element).id !== SIDEBAR && menus.isOpen(SIDEBAR)) menus.close(false)
    }}
  >
    <h2>Metrics</h2>
    <ul>
      ${metrics.map(
        (m, i) =>
          html`<li>
            <button
              type="button"
              id=${itemId(i)}
              part="sidebar-item"
              @click=${() => {
                menus.close(false)
                go(m.metric.metricId)
              }}
            >
              ${m.metric.name}
            </button>
          </li>`,
      )}
    </ul>
  </nav>`
}
