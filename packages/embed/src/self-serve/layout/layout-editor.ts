import { GRID_COLUMNS } from '@strata/contract/grid'
import { type Direction, moveItem, resizeItem, sameLayout, stepMove, stepResize } from '@strata/contract/grid-editing'
import { html, nothing, type TemplateResult } from 'lit'
import type { LayoutItem } from '../../api/types.js'
import type { CardEdit } from '../../render/card.js'
import { resetLayout as resetToDefault, saveLayout } from '../api.js'
import { COMPANY_LAYOUT_EVENT, companySave } from '../company-mode.js'
import type { LayoutViewsHost } from '../host.js'

const HELP_ID = 'strata-layout-help'
const KEYS: Record<string, Direction> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' }

/** What the edit bar asks in place of its buttons. */
const QUESTIONS = {
  reset: { title: 'Use the default layout?', confirm: 'Reset layout', keep: 'Keep mine', part: 'reset-layout-confirm' },
  discard: { title: 'Discard changes?', confirm: 'Discard', keep: 'Keep editing', part: 'discard-layout-confirm' },
} as const

interface Drag {
  readonly metricId: string
  readonly mode: 'move' | 'resize'
  /** The layout and the item when the drag began: every step is computed from them (no drift). */
  readonly base: readonly LayoutItem[]
  readonly from: LayoutItem
  readonly order: readonly string[]
  readonly startX: number
  readonly startY: number
  /** One column and one row in pixels, gap included. */
  readonly unitX: number
  readonly unitY: number
  /** One-column grid (narrow screens): only rows count. */
  readonly narrow: boolean
  readonly card: HTMLElement
  readonly handle: HTMLElement
  readonly pointerId: number
}

/**
 * Edit-layout mode (`permissions.customizeLayout`): every card can be dragged (anywhere on it)
 * to move and by its corner to resize, snapping to the 12-column grid while the other cards
 * make room (grid.ts); a focused card moves with the arrow keys and resizes with Shift+arrows,
 * each step announced. Save sends PUT /layout, "Reset to default" DELETE /layout. The cards stay
 * where they are when the mode begins and ends: nothing moves but what the user moves.
 */
export class LayoutEditor {
  active = false
  /** The layout being edited (reading order). */
  layout: LayoutItem[] = []
  private start: LayoutItem[] = []
  private drag: Drag | undefined
  busy: 'save' | 'reset' | undefined
  error: string | undefined
  /** The question the edit bar asks in place of its buttons: reset to the default, or discard the changes. */
  asking: 'reset' | 'discard' | undefined
  /** The polite live region's text. */
  message = ''

  constructor(private readonly host: LayoutViewsHost) {}

  /** Starts editing the layout shown (`placements`, reading order); focus goes to the first card. */
  enter(placements: readonly LayoutItem[]): void {
    this.start = [...placements]
    this.layout = [...placements]
    this.active = true
    this.error = undefined
    this.asking = undefined
    this.announce(
      'Editing the layout. Drag a card to move it, or its lower right corner to resize it. With the keyboard: arrow keys move the focused card, Shift and arrow keys resize it.',
    )
    this.host.requestUpdate()
    void this.host.updateComplete.then(() => this.cardOf(this.layout[0]?.metricId)?.focus())
  }

  /** The cards' places to draw, in the order their elements keep (fixed while a drag runs). */
  placements(): LayoutItem[] {
    const d = this.drag
    if (!d) return this.layout
    const at = new Map(this.layout.map((i) => [i.metricId, i]))
    // the dragged card stays in its cell (a transform follows the pointer); the drop target shows where it lands
    return d.order.map((id) => (id === d.metricId && d.mode === 'move' ? d.from : (at.get(id) as LayoutItem)))
  }

  /** The dashed outline of where a dragged card will land. */
  renderDropTarget(): TemplateResult | typeof nothing {
    const d = this.drag
    const item = d?.mode === 'move' ? this.layout.find((i) => i.metricId === d.metricId) : undefined
    if (!item) return nothing
    return html`<div
      class="drop-target"
      part="drop-target"
      aria-hidden="true"
      style="--x:${item.x + 1};--y:${item.y + 1};--w:${item.w};--h:${item.h}"
    ></div>`
  }

  readonly card: CardEdit = {
    helpId: HELP_ID,
    isDragging: (id) => this.drag?.metricId === id,
    keydown: (e) => this.onKey(e),
    overlay: (id, name) => {
      const item = this.layout.find((i) => i.metricId === id)
      return html`<div
          class="edit-shield"
          part="move-handle"
          title="Drag to move ${name}"
          @pointerdown=${(e: PointerEvent) => this.begin(e, id, 'move')}
        >
          <span class="grip" aria-hidden="true"></span>
          ${item ? html`<span class="size" aria-hidden="true">${item.w} × ${item.h}</span>` : nothing}
        </div>
        <div
          class="resize-handle"
          part="resize-handle"
          title="Drag to resize ${name}"
          aria-hidden="true"
          @pointerdown=${(e: PointerEvent) => this.begin(e, id, 'resize')}
        ></div>`
    },
  }

  /** The bar over the header while editing: Save, Cancel and (for a customised layout) Reset to default. */
  renderBar(customLayout: boolean): TemplateResult {
    const busy = this.busy !== undefined
    const changed = !sameLayout(this.layout, this.start)
    const question = this.asking ? QUESTIONS[this.asking] : undefined
    return html`<div
      class="edit-bar"
      part="edit-bar"
      role="toolbar"
      aria-label="Edit layout"
      @keydown=${(e: KeyboardEvent) => {
        if (e.key !== 'Escape' || !this.asking) return
        e.preventDefault()
        e.stopPropagation()
        this.ask(undefined)
      }}
    >
      <span class="edit-bar-title" id="strata-edit-bar-title">${question?.title ?? 'Editing layout'}</span>
      ${this.error ? html`<span class="edit-bar-error" role="alert">${this.error}</span>` : nothing}
      <span class="edit-bar-actions">
        ${
          question
            ? html`<button
                  type="button"
                  class="button ${this.asking === 'discard' ? 'danger' : ''}"
                  part=${question.part}
                  aria-describedby="strata-edit-bar-title"
                  ?disabled=${busy}
                  @click=${() => (this.asking === 'reset' ? void this.reset() : this.leave('Layout not changed.'))}
                >
                  ${this.busy === 'reset' ? html`<span class="spinner"></span>` : nothing}${question.confirm}
                </button>
                <button type="button" class="button subtle" part="keep-layout-button" ?disabled=${busy} @click=${() => this.ask(undefined)}>
                  ${question.keep}
                </button>`
            : html`${
                customLayout
                  ? html`<button
                      type="button"
                      class="button subtle"
                      part="reset-layout-button"
                      ?disabled=${busy}
                      @click=${() => this.ask('reset')}
                    >
                      Reset to default
                    </button>`
                  : nothing
              }
                <button type="button" class="button" part="cancel-layout-button" ?disabled=${busy} @click=${() => this.cancel()}>
                  Cancel
                </button>
                <button
                  type="button"
                  class="button primary"
                  part="save-layout-button"
                  ?disabled=${busy}
                  aria-describedby=${changed ? nothing : 'strata-layout-unchanged'}
                  @click=${() => void this.save()}
                >
                  ${this.busy === 'save' ? html`<span class="spinner"></span>` : nothing}Save layout
                </button>`
        }
      </span>
    </div>`
  }

  /** The keyboard help the cards point to, and the live region of every change. */
  renderLive(): TemplateResult {
    return html`<p id=${HELP_ID} class="sr-only">
        Arrow keys move this card, Shift and arrow keys resize it.
      </p>
      <p id="strata-layout-unchanged" class="sr-only">No changes yet</p>
      <div class="sr-only" role="status" aria-live="polite" part="live">${this.message}</div>`
  }

  /** Cancel: leaves the mode, after asking whether to discard the changes when there are some. */
  cancel(): void {
    this.endDrag(false)
    if (sameLayout(this.layout, this.start)) this.leave('Layout not changed.')
    else this.ask('discard')
  }

  async save(): Promise<void> {
    const client = this.host.client()
    if (!client || this.busy) return
    if (sameLayout(this.layout, this.start)) return this.leave('Layout not changed.')
    this.busy = 'save'
    this.error = undefined
    this.host.requestUpdate()
    try {
      const layout = this.layout.map(({ metricId, x, y, w, h }) => ({ metricId, x, y, w, h }))
      const root = this.host.renderRoot
      const company =
        root instanceof ShadowRoot ? companySave<LayoutItem[]>(root.host, COMPANY_LAYOUT_EVENT, { layout }) : undefined
      this.host.setLayout(company ? await company : await saveLayout(client, layout), !company)
      this.leave('Layout saved.')
    } catch (e) {
      this.failed(e, 'The layout could not be saved')
    } finally {
      this.busy = undefined
      this.host.requestUpdate()
    }
  }

  async reset(): Promise<void> {
    const client = this.host.client()
    if (!client || this.busy) return
    this.busy = 'reset'
    this.error = undefined
    this.host.requestUpdate()
    try {
      this.host.setLayout(await resetToDefault(client), false)
      this.leave('Default layout restored.')
    } catch (e) {
      this.failed(e, 'The layout could not be reset')
    } finally {
      this.busy = undefined
      this.host.requestUpdate()
    }
  }

  /**
   * Asks in the bar (focus on its answer, so Enter confirms and Escape keeps editing), or stops
   * asking (focus back on the button that asked).
   */
  private ask(question: 'reset' | 'discard' | undefined): void {
    const was = this.asking
    this.asking = question
    if (question) this.announce(QUESTIONS[question].title)
    this.host.requestUpdate()
    const focus = question ? QUESTIONS[question].part : was === 'reset' ? 'reset-layout-button' : 'cancel-layout-button'
    void this.host.updateComplete.then(() =>
      this.host.renderRoot.querySelector<HTMLElement>(`[part~="${focus}"]`)?.focus(),
    )
  }

  private failed(e: unknown, what: string): void {
    this.error = `${what}: ${e instanceof Error ? e.message : String(e)}`
    this.host.fail(e)
  }

  private leave(message: string): void {
    this.active = false
    this.asking = undefined
    this.error = undefined
    this.announce(message)
    this.host.requestUpdate()
    void this.host.updateComplete.then(() =>
      this.host.renderRoot.querySelector<HTMLElement>('[part~="edit-layout-button"]')?.focus(),
    )
  }

  private announce(message: string): void {
    // the same sentence twice still has to be read out: change the text
    this.message = message === this.message ? `${message}\u00a0` : message
  }

  private cardOf(metricId: string | undefined): HTMLElement | null {
    if (!metricId) return null
    return this.host.renderRoot.querySelector<HTMLElement>(`.card[data-metric-id="${CSS.escape(metricId)}"]`)
  }

  private nameOf(metricId: string): string {
    return this.host.embed()?.metrics.find((m) => m.metricId === metricId)?.name ?? metricId
  }

  private describe(metricId: string, mode: 'move' | 'resize'): string {
    const i = this.layout.find((l) => l.metricId === metricId)
    if (!i) return ''
    const name = this.nameOf(metricId)
    return mode === 'move'
      ? `${name} moved to column ${i.x + 1}, row ${i.y + 1}.`
      : `${name} resized to ${i.w} ${i.w === 1 ? 'column' : 'columns'} by ${i.h} ${i.h === 1 ? 'row' : 'rows'}.`
  }

  private onKey(e: KeyboardEvent): void {
    const card = e.currentTarget as HTMLElement
    if (e.key === 'Escape' && this.drag) {
      e.preventDefault()
      e.stopPropagation()
      this.endDrag(false)
      return
    }
    const direction = KEYS[e.key]
    const id = card.dataset.metricId
    if (!direction || !id || e.target !== card || e.altKey || e.ctrlKey || e.metaKey || this.drag) return
    e.preventDefault()
    const mode = e.shiftKey ? 'resize' : 'move'
    const next = (mode === 'resize' ? stepResize : stepMove)(this.layout, id, direction)
    if (sameLayout(next, this.layout)) {
      this.announce(`${this.nameOf(id)} cannot ${mode === 'resize' ? 'be resized' : 'move'} further ${direction}.`)
    } else {
      this.layout = next
      this.announce(this.describe(id, mode))
    }
    this.host.requestUpdate()
    // the card may have moved in the document (reading order): keep the focus on it
    void this.host.updateComplete.then(() => {
      const el = this.cardOf(id)
      if (el && el !== (this.host.renderRoot as ShadowRoot).activeElement) el.focus({ preventScroll: true })
      el?.scrollIntoView({ block: 'nearest' })
    })
  }

  private begin(e: PointerEvent, metricId: string, mode: 'move' | 'resize'): void {
    if (e.button !== 0 || this.busy || this.asking || this.drag) return
    const handle = e.currentTarget as HTMLElement
    const card = handle.closest<HTMLElement>('.card')
    const grid = card?.parentElement
    const from = this.layout.find((i) => i.metricId === metricId)
    if (!card || !grid || !from) return
    e.preventDefault()
    const style = getComputedStyle(grid)
    const colGap = Number.parseFloat(style.columnGap) || 0
    const rowGap = Number.parseFloat(style.rowGap) || 0
    const narrow = style.gridTemplateColumns.split(' ').length < GRID_COLUMNS
    const row = Number.parseFloat(style.gridAutoRows) || 80
    this.drag = {
      metricId,
      mode,
      base: this.layout,
      from,
      order: this.layout.map((i) => i.metricId),
      startX: e.clientX,
      startY: e.clientY,
      unitX: (grid.clientWidth - colGap * (GRID_COLUMNS - 1)) / GRID_COLUMNS + colGap,
      unitY: row + rowGap,
      narrow,
      card,
      handle,
      pointerId: e.pointerId,
    }
    handle.setPointerCapture(e.pointerId)
    handle.addEventListener('pointermove', this.onMove)
    handle.addEventListener('pointerup', this.onUp)
    handle.addEventListener('pointercancel', this.onCancel)
    handle.addEventListener('lostpointercapture', this.onUp)
    card.focus({ preventScroll: true })
    this.host.requestUpdate()
  }

  private readonly onMove = (e: PointerEvent): void => {
    const d = this.drag
    if (!d || e.pointerId !== d.pointerId) return
    const dx = d.narrow ? 0 : e.clientX - d.startX
    const dy = e.clientY - d.startY
    const cols = Math.round(dx / d.unitX)
    const rows = Math.round(dy / d.unitY)
    const next =
      d.mode === 'move'
        ? moveItem(d.base, d.metricId, d.from.x + cols, d.from.y + rows)
        : resizeItem(d.base, d.metricId, d.from.w + cols, d.from.h + rows)
    if (d.mode === 'move') d.card.style.translate = `${dx}px ${dy}px`
    if (!sameLayout(next, this.layout)) {
      this.layout = next
      this.host.requestUpdate()
    }
  }

  private readonly onUp = (e: PointerEvent): void => {
    if (this.drag && e.pointerId === this.drag.pointerId) this.endDrag(true)
  }

  private readonly onCancel = (e: PointerEvent): void => {
    if (this.drag && e.pointerId === this.drag.pointerId) this.endDrag(false)
  }

  private endDrag(keep: boolean): void {
    const d = this.drag
    if (!d) return
    this.drag = undefined
    d.handle.removeEventListener('pointermove', this.onMove)
    d.handle.removeEventListener('pointerup', this.onUp)
    d.handle.removeEventListener('pointercancel', this.onCancel)
    d.handle.removeEventListener('lostpointercapture', this.onUp)
    if (d.handle.hasPointerCapture(d.pointerId)) d.handle.releasePointerCapture(d.pointerId)
    d.card.style.translate = ''
    if (!keep) this.layout = [...d.base]
    else if (!sameLayout(this.layout, d.base)) this.announce(this.describe(d.metricId, d.mode))
    this.host.requestUpdate()
  }
}
