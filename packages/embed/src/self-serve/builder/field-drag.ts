import type { FieldTarget } from './builder-view.js'

/** How far (px) a pointer moves before a press on a field becomes a drag (less is a click). */
const THRESHOLD = 6

/** What the drag reads and calls (the builder holds the state). */
export interface FieldDragHost {
  /** The shadow root the field list and the zones are in (hit tests, the ghost). */
  root(): ShadowRoot
  setOver(target: FieldTarget | undefined): void
  /** The field's label shown at the pointer while it is dragged (undefined: none); it follows by `.bd-ghost`'s translate. */
  setGhost(ghost: { readonly label: string; readonly x: number; readonly y: number } | undefined): void
  drop(target: FieldTarget, key: string): void
  closeMenu(): void
}

interface Press {
  readonly key: string
  readonly label: string
  /** The targets this field may go to ("Number of rows": measures only). */
  readonly targets: readonly FieldTarget[]
  readonly pointerId: number
  readonly x: number
  readonly y: number
  readonly el: HTMLElement
  dragging: boolean
}

/**
 * Dragging a field into Measures, Dimensions or Filters with any pointer: a mouse, a pen or a
 * finger (pointer events, one code path; the HTML drag-and-drop API is mouse-only in most
 * browsers). A press that moves past a few pixels becomes a drag: a ghost of the field follows
 * the pointer, the zone under it is highlighted, and letting go over one adds the field there.
 * The fields allow vertical panning (`touch-action: pan-y`), so a finger moving up or down
 * scrolls the list and one moving sideways drags. Escape cancels a drag; the keyboard's way in
 * is unchanged (choose the field, then where it goes).
 */
export class FieldDrag {
  private press: Press | undefined
  /** The click that ends a drag (same button) must not open the field's menu. */
  private swallowClick = false

  constructor(private readonly host: FieldDragHost) {}

  get dragging(): boolean {
    return this.press?.dragging === true
  }

  /** pointerdown on a field. */
  down(e: PointerEvent, key: string, label: string, targets: readonly FieldTarget[]): void {
    this.swallowClick = false
    if (this.press || (e.pointerType === 'mouse' && e.button !== 0)) return
    const el = e.currentTarget as HTMLElement
    this.press = { key, label, targets, pointerId: e.pointerId, x: e.clientX, y: e.clientY, el, dragging: false }
    // the field keeps the pointer wherever it goes (a finger's is kept anyway), and gets the up
    el.setPointerCapture(e.pointerId)
    el.addEventListener('pointermove', this.onMove)
    el.addEventListener('pointerup', this.onUp)
    el.addEventListener('pointercancel', this.onCancel)
    // a finger's move is a drag once it began: no scrolling under it
    el.addEventListener('touchmove', this.onTouchMove, { passive: false })
  }

  /** Whether a click on a field is the end of a drag (and so not a choice). */
  consumeClick(): boolean {
    const swallow = this.swallowClick
    this.swallowClick = false
    return swallow
  }

  /** Ends a drag without dropping (Escape, the builder closing). */
  cancel(): void {
    this.end(undefined)
  }

  private readonly onMove = (e: PointerEvent): void => {
    const p = this.press
    if (!p || e.pointerId !== p.pointerId) return
    if (!p.dragging) {
      const dx = Math.abs(e.clientX - p.x)
      const dy = Math.abs(e.clientY - p.y)
      if (Math.hypot(dx, dy) < THRESHOLD) return
      // a finger going up or down scrolls the list (the browser pans it): not a drag
      if (e.pointerType === 'touch' && dy > dx) {
        this.end(undefined)
        return
      }
      p.dragging = true
      this.host.closeMenu()
      this.host.setGhost({ label: p.label, x: e.clientX, y: e.clientY })
    }
    e.preventDefault()
    const ghost = this.host.root().querySelector<HTMLElement>('.bd-ghost')
    if (ghost) ghost.style.translate = `${e.clientX}px ${e.clientY}px`
    this.host.setOver(this.targetAt(e.clientX, e.clientY))
  }

  private readonly onUp = (e: PointerEvent): void => {
    const p = this.press
    if (!p || e.pointerId !== p.pointerId) return
    this.end(p.dragging ? this.targetAt(e.clientX, e.clientY) : undefined)
  }

  private readonly onCancel = (e: PointerEvent): void => {
    if (this.press && e.pointerId === this.press.pointerId) this.end(undefined)
  }

  private readonly onTouchMove = (e: TouchEvent): void => {
    if (this.press?.dragging && e.cancelable) e.preventDefault()
  }

  /** The zone under a point, if this field may go there. */
  private targetAt(x: number, y: number): FieldTarget | undefined {
    const zone = this.host.root().elementFromPoint(x, y)?.closest<HTMLElement>('[data-zone]')
    const target = zone?.dataset.zone as FieldTarget | undefined
    return target && this.press?.targets.includes(target) ? target : undefined
  }

  private end(target: FieldTarget | undefined): void {
    const p = this.press
    if (!p) return
    this.press = undefined
    p.el.removeEventListener('pointermove', this.onMove)
    p.el.removeEventListener('pointerup', this.onUp)
    p.el.removeEventListener('pointercancel', this.onCancel)
    p.el.removeEventListener('touchmove', this.onTouchMove)
    if (p.el.hasPointerCapture(p.pointerId)) p.el.releasePointerCapture(p.pointerId)
    if (!p.dragging) return
    this.swallowClick = true
    this.host.setGhost(undefined)
    this.host.setOver(undefined)
    if (target) this.host.drop(target, p.key)
  }
}
