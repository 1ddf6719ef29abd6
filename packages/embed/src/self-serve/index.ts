/**
 * The self-serve module, loaded on demand with import() (a chunk of its own, never part of the
 * first load): edit-layout mode and saved views. The element holds a tiny trigger for each.
 */
import { adoptStyles, type LitElement } from 'lit'
import type { LayoutItem } from '../api/types.js'
import type { EmbedController } from '../embed-controller.js'
import { isPinned } from '../lib/filters.js'
import type { Menus } from '../menu-controller.js'
import type { SelfServeHost } from './host.js'
import { LayoutEditor } from './layout-editor.js'
import { selfServeStyles } from './styles.js'
import { type OwnLayout, ViewsMenu } from './views.js'

export { listViews } from './api.js'
export type { SelfServeHost } from './host.js'

/** Edit-layout mode and the views menu of one element. */
export class LayoutViews {
  readonly editor: LayoutEditor
  readonly views: ViewsMenu
  /** The layout without any view: the loaded one, then what the user saved or reset. */
  private own: OwnLayout

  constructor(host: SelfServeHost) {
    const dashboard = host.embed()?.dashboard
    this.own = { layout: dashboard?.layout ?? [], custom: dashboard?.customLayout === true }
    const editorHost: SelfServeHost = Object.create(host, {
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
    adoptStyles(root, [...(element.constructor as typeof LitElement).elementStyles, selfServeStyles])
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
