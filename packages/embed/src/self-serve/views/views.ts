import { sameLayout } from '@strata/contract/grid-editing'
import { html, nothing, type TemplateResult } from 'lit'
import { live } from 'lit/directives/live.js'
import type { LayoutItem, SavedView } from '../../api/types.js'
import { checkIcon } from '../../render/icons.js'
import { createView, deleteView } from '../api.js'
import type { LayoutViewsHost } from '../host.js'
import { trashIcon } from '../icons.js'

/** The popup key of the views menu, which is also its toggle's element id (MenuController). */
export const VIEWS = 'strata-views'
const PANEL = 'strata-views-panel'
const NAME_INPUT = 'strata-view-name'
const MAX_NAME = 100

/** The layout the end user has without any view: the loaded one, or the one they saved or reset. */
export interface OwnLayout {
  layout: readonly LayoutItem[]
  custom: boolean
}

/** JSON with sorted keys: two filter sets compare equal whatever order the server kept. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable(o[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * The views menu (`permissions.dashboardViews`), a panel under its toggle next to the filters:
 * the saved views (a click applies one's filters, and layout, and queries again; the bin
 * deletes one after a confirmation in place), and a form that saves the current filter values
 * (and the layout when it is customised) under a name. The list comes with the load.
 */
export class ViewsMenu {
  private draft = ''
  private confirming: string | undefined
  private busy: string | undefined
  private error: string | undefined
  private appliedId: string | undefined
  message = ''

  constructor(
    private readonly host: LayoutViewsHost,
    private readonly own: () => OwnLayout,
  ) {}

  get views(): readonly SavedView[] {
    return this.host.embed()?.views ?? []
  }

  /** The view whose filters (and layout) are those shown, when the user applied or saved it. */
  get active(): SavedView | undefined {
    const v = this.views.find((x) => x.viewId === this.appliedId)
    if (!v) return undefined
    if (stable(v.filters) !== stable(this.host.filterValues())) return undefined
    if (v.layout && !sameLayout(v.layout, this.host.placements())) return undefined
    return v
  }

  /** The toggle's text: the view in effect, else "Views". */
  get label(): string {
    return this.active?.name ?? 'Views'
  }

  /** Opens the menu with focus on the first view (or the name field when there is none). */
  open(): void {
    this.error = undefined
    this.confirming = undefined
    this.host.menus.show(VIEWS, -1, this.views.length ? `${PANEL}-item-0` : NAME_INPUT)
  }

  private get customised(): boolean {
    return this.own().custom || !sameLayout(this.own().layout, this.host.placements())
  }

  apply(view: SavedView): void {
    this.appliedId = view.viewId
    if (this.host.filtersEditable) this.host.applyFilters(view.filters)
    const own = this.own()
    this.host.setLayout(view.layout ?? own.layout, own.custom)
    this.host.menus.close(true)
    this.announce(`View ${view.name} applied.`)
  }

  private async save(): Promise<void> {
    const client = this.host.client()
    const name = this.draft.trim()
    if (!client || !name || this.busy) return
    if (this.views.some((v) => v.name === name)) {
      // the server refuses a second view of the same name: say so without asking it
      this.error = `A view named “${name}” already exists: pick another name, or delete that view first.`
      this.host.requestUpdate()
      return
    }
    this.busy = 'save'
    this.error = undefined
    this.host.requestUpdate()
    const filters = this.host.filterValues()
    const layout = this.customised
      ? this.host.placements().map(({ metricId, x, y, w, h }) => ({ metricId, x, y, w, h }))
      : undefined
    try {
      const saved = await createView(client, { name, filters, ...(layout ? { layout } : {}) })
      const view: SavedView = { viewId: saved.viewId, name: saved.name, filters, ...(layout ? { layout } : {}) }
      this.host.setViews([...this.views, view])
      this.appliedId = view.viewId
      this.draft = ''
      this.announce(`View ${view.name} saved.`)
    } catch (e) {
      this.error = `The view could not be saved: ${e instanceof Error ? e.message : String(e)}`
      this.host.fail(e)
    } finally {
      this.busy = undefined
      this.host.requestUpdate()
    }
  }

  private async remove(view: SavedView, index: number): Promise<void> {
    const client = this.host.client()
    if (!client || this.busy) return
    this.busy = view.viewId
    this.error = undefined
    this.host.requestUpdate()
    try {
      await deleteView(client, view.viewId)
      const rest = this.views.filter((v) => v.viewId !== view.viewId)
      this.host.setViews(rest)
      this.confirming = undefined
      this.announce(`View ${view.name} deleted.`)
      this.focus(rest.length ? `${PANEL}-item-${Math.min(index, rest.length - 1)}` : NAME_INPUT)
    } catch (e) {
      this.error = `The view could not be deleted: ${e instanceof Error ? e.message : String(e)}`
      this.host.fail(e)
    } finally {
      this.busy = undefined
      this.host.requestUpdate()
    }
  }

  private confirm(viewId: string | undefined, focus: string): void {
    this.confirming = viewId
    this.host.requestUpdate()
    this.focus(focus)
  }

  private focus(id: string): void {
    void this.host.updateComplete.then(() =>
      (this.host.renderRoot as ShadowRoot).getElementById?.(id)?.focus({ preventScroll: true }),
    )
  }

  private announce(message: string): void {
    this.message = message === this.message ? `${message}\u00a0` : message
  }

  private onKey = (e: KeyboardEvent): void => {
    if (e.key !== 'Escape') return
    e.preventDefault()
    e.stopPropagation()
    if (this.confirming) {
      const at = this.views.findIndex((v) => v.viewId === this.confirming)
      this.confirm(undefined, `${PANEL}-delete-${at}`)
    } else this.host.menus.close(true)
  }

  /** The panel (rendered under the toggle; hidden while closed) and a live region. */
  render(): TemplateResult {
    const open = this.host.menus.isOpen(VIEWS)
    const active = this.active
    const busy = this.busy !== undefined
    const what = this.customised ? 'filters and layout' : 'filters'
    return html`<section
        class="header-panel views-panel"
        part="views-panel"
        id=${PANEL}
        data-menu=${VIEWS}
        aria-label="Saved views"
        ?hidden=${!open}
        @keydown=${this.onKey}
      >
        <h2>Saved views</h2>
        ${
          this.views.length === 0
            ? html`<p class="views-empty" part="views-empty">
                <strong>No saved views yet.</strong>
                Save the current ${what} under a name to come back to them in one click.
              </p>`
            : html`<ul class="views-list" aria-label="Views">
                ${this.views.map((v, i) =>
                  this.confirming === v.viewId
                    ? html`<li class="view-row confirming">
                        <span class="view-confirm" id="${PANEL}-confirm-${i}">Delete “${v.name}”?</span>
                        <button
                          type="button"
                          class="button danger"
                          id="${PANEL}-really-${i}"
                          part="view-delete-confirm"
                          aria-describedby="${PANEL}-confirm-${i}"
                          ?disabled=${busy}
                          @click=${() => void this.remove(v, i)}
                        >
                          ${this.busy === v.viewId ? html`<span class="spinner"></span>` : nothing}Delete
                        </button>
                        <button
                          type="button"
                          class="button subtle"
                          ?disabled=${busy}
                          @click=${() => this.confirm(undefined, `${PANEL}-delete-${i}`)}
                        >
                          Keep
                        </button>
                      </li>`
                    : html`<li class="view-row">
                        <button
                          type="button"
                          class="view-apply"
                          id="${PANEL}-item-${i}"
                          part="view-item"
                          aria-current=${active?.viewId === v.viewId ? 'true' : nothing}
                          @click=${() => this.apply(v)}
                        >
                          <span class="view-check">${active?.viewId === v.viewId ? checkIcon : nothing}</span>
                          <span class="view-name">${v.name}</span>
                          ${v.layout ? html`<span class="view-tag">layout</span>` : nothing}
                        </button>
                        <button
                          type="button"
                          class="icon-button"
                          id="${PANEL}-delete-${i}"
                          part="view-delete"
                          aria-label="Delete view ${v.name}"
                          title="Delete view"
                          ?disabled=${busy}
                          @click=${() => this.confirm(v.viewId, `${PANEL}-really-${i}`)}
                        >
                          ${trashIcon}
                        </button>
                      </li>`,
                )}
              </ul>`
        }
        <form
          class="views-save"
          @submit=${(e: Event) => {
            e.preventDefault()
            void this.save()
          }}
        >
          <label for=${NAME_INPUT}>Save the current ${what} as</label>
          <div class="views-save-row">
            <input
              id=${NAME_INPUT}
              class="control"
              part="view-name"
              type="text"
              maxlength=${MAX_NAME}
              placeholder="View name"
              autocomplete="off"
              .value=${live(this.draft)}
              @input=${(e: Event) => {
                this.draft = (e.target as HTMLInputElement).value
                this.error = undefined
                this.host.requestUpdate()
              }}
            />
            <button type="submit" class="button primary" part="save-view-button" ?disabled=${busy || !this.draft.trim()}>
              ${this.busy === 'save' ? html`<span class="spinner"></span>` : nothing}Save
            </button>
          </div>
        </form>
        ${this.error ? html`<p class="views-error" role="alert">${this.error}</p>` : nothing}
      </section>
      <div class="sr-only" role="status" aria-live="polite">${this.message}</div>`
  }
}
