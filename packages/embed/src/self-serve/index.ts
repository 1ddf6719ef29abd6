/**
 * The self-serve UI, loaded on demand (`import()`) by `<strata-dashboard>` when the token may
 * use it: the metric builder, card menus and archived list (when it may create, change, archive
 * or restore metrics), edit-layout mode and saved views (when it may customise the layout or
 * save views), and the email report controls (when the load's reports.available). A separate chunk, so the entry module stays within its size budget and a
 * read-only dashboard never downloads it.
 */

import { adoptStyles, type LitElement } from 'lit'
import type { LayoutItem } from '../api/types.js'
import { defineElement } from '../define.js'
// the builder's preview draws every chart type the builder offers, those with a shape included
import '../shaped-charts.js'
import type { EmbedController } from '../embed-controller.js'
import { isPinned } from '../lib/filters.js'
import type { Menus } from '../menu-controller.js'
import { StrataAiSummary } from './ai/ai-summary.js'
import { StrataMetricBuilder } from './builder/metric-builder.js'
import { buttonStyles } from './common.styles.js'
import { StrataCompanyUpdateNote } from './company-update-note.js'
import type { LayoutViewsHost } from './host.js'
import { LayoutEditor } from './layout/layout-editor.js'
import { StrataArchivedMenu } from './menus/archived-menu.js'
import { StrataCardMenu } from './menus/card-menu.js'
import type { SelfServeHost, SelfServeSessionApi } from './metrics-host.js'
import { StrataSelfServeOverlay } from './overlay.js'
import { StrataReportDialog } from './reports/report-dialog.js'
import { StrataReportsMenu } from './reports/reports-menu.js'
import { SelfServeSession } from './session.js'
import { selfServeStyles } from './styles.js'
import { StrataUnderlyingDialog } from './underlying/underlying-dialog.js'
import { type OwnLayout, ViewsMenu } from './views/views.js'

defineElement('strata-metric-builder', StrataMetricBuilder)
defineElement('strata-card-menu', StrataCardMenu)
defineElement('strata-archived-menu', StrataArchivedMenu)
defineElement('strata-self-serve-overlay', StrataSelfServeOverlay)
defineElement('strata-ai-summary', StrataAiSummary)
defineElement('strata-reports-menu', StrataReportsMenu)
defineElement('strata-report-dialog', StrataReportDialog)
defineElement('strata-underlying-dialog', StrataUnderlyingDialog)
defineElement('strata-company-update-note', StrataCompanyUpdateNote)

export { SelfServeApi } from './builder/metric-api.js'
export { SelfServeSession }

/** One session per dashboard element (and per loaded embed). */
export function createSession(host: SelfServeHost): SelfServeSessionApi {
  return new SelfServeSession(host)
}

declare global {
  interface HTMLElementTagNameMap {
    'strata-metric-builder': StrataMetricBuilder
    'strata-card-menu': StrataCardMenu
    'strata-archived-menu': StrataArchivedMenu
    'strata-self-serve-overlay': StrataSelfServeOverlay
    'strata-ai-summary': StrataAiSummary
    'strata-reports-menu': StrataReportsMenu
    'strata-report-dialog': StrataReportDialog
    'strata-underlying-dialog': StrataUnderlyingDialog
    'strata-company-update-note': StrataCompanyUpdateNote
  }
}

export { listViews } from './api.js'
export type { LayoutViewsHost } from './host.js'

/** Edit-layout mode and the views menu of one element. */
export class LayoutViews {
  readonly editor: LayoutEditor
  readonly views: ViewsMenu
  /** The layout without any view: the loaded one, then what the user saved or reset. */
  private own: OwnLayout

  constructor(host: LayoutViewsHost) {
    const dashboard = host.embed()?.dashboard
    this.own = { layout: dashboard?.layout ?? [], custom: dashboard?.customLayout === true }
    const editorHost: LayoutViewsHost = Object.create(host, {
      setLayout: {
        value: (layout: readonly LayoutItem[], custom: boolean) => {
          this.own = { layout, custom }
          host.setLayout(layout, custom)
        },
      },
    })
    this.editor = new LayoutEditor(editorHost)
    this.views = new ViewsMenu(host, () => this.own)
  }
}

const styled = new WeakSet<LitElement>()

/**
 * Edit-layout mode and views for the element (its controller, its popups, the cards' places as
 * shown); adopts the module's styles into its shadow root the first time.
 */
export function createLayoutViews(
  element: LitElement,
  c: EmbedController,
  menus: Menus,
  placements: () => LayoutItem[],
): LayoutViews {
  const root = element.renderRoot
  if (!styled.has(element) && root instanceof ShadowRoot) {
    styled.add(element)
    adoptStyles(root, [...(element.constructor as typeof LitElement).elementStyles, buttonStyles, selfServeStyles])
  }
  return new LayoutViews({
    renderRoot: root,
    menus,
    client: () => c.api,
    embed: () => c.embed,
    placements,
    filterValues: () => {
      const out: Record<string, unknown> = {}
      for (const f of c.filters.filters) {
        const v = c.filters.values[f.name]
        if (!isPinned(f) && v !== undefined) out[f.name] = v
      }
      return out
    },
    get filtersEditable() {
      return c.filters.isEditable
    },
    applyFilters: (values) => c.applyFilters(values),
    setLayout: (layout, custom) => c.setLayout(layout, custom),
    setViews: (views) => c.setViews(views),
    fail: (e) => c.fail(e),
    requestUpdate: () => element.requestUpdate(),
    get updateComplete() {
      return element.updateComplete
    },
  })
}
