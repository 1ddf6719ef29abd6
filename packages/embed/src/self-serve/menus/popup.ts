import { LitElement } from 'lit'
import { state } from 'lit/decorators.js'
import { focusByKey } from '../../lib/roving-focus.js'

/**
 * A button that opens a popup in the top layer (the `popover` attribute, so a card's
 * `overflow: hidden` never clips it), placed under the button, right-aligned. It closes on
 * Escape (focus back on the button), on a pointer down outside and on Tab out of it; it
 * follows the button when the page scrolls or resizes. Subclasses render `#trigger` and `#popup`.
 */
export abstract class PopupElement extends LitElement {
  @state() protected open = false
  private focusFirst = false

  protected get trigger(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('#trigger')
  }

  protected get popup(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('#popup')
  }

  protected toggle(focusFirst = true): void {
    if (this.open) this.hide(true)
    else this.show(focusFirst)
  }

  protected show(focusFirst = true): void {
    this.open = true
    this.focusFirst = focusFirst
  }

  protected hide(refocus: boolean): void {
    if (!this.open) return
    this.open = false
    if (refocus) this.trigger?.focus()
  }

  protected override updated(): void {
    const popup = this.popup
    if (!popup) return
    if (this.open && !popup.matches(':popover-open')) {
      popup.showPopover()
      this.place()
      document.addEventListener('pointerdown', this.onOutside, true)
      window.addEventListener('scroll', this.onScroll, true)
      window.addEventListener('resize', this.onScroll)
      if (this.focusFirst) this.entries()[0]?.focus()
    } else if (!this.open && popup.matches(':popover-open')) {
      popup.hidePopover()
      this.detach()
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    this.detach()
    this.open = false
  }

  private detach(): void {
    document.removeEventListener('pointerdown', this.onOutside, true)
    window.removeEventListener('scroll', this.onScroll, true)
    window.removeEventListener('resize', this.onScroll)
  }

  private place(): void {
    const popup = this.popup
    const trigger = this.trigger
    if (!popup || !trigger) return
    const r = trigger.getBoundingClientRect()
    const w = popup.offsetWidth
    const h = popup.offsetHeight
    const left = Math.max(8, Math.min(r.right - w, window.innerWidth - w - 8))
    const below = r.bottom + 4
    const top = below + h > window.innerHeight - 8 && r.top - h - 4 > 8 ? r.top - h - 4 : below
    popup.style.left = `${left}px`
    popup.style.top = `${top}px`
  }

  /** The popup's focusable entries, in order. */
  protected entries(): HTMLElement[] {
    return [...(this.popup?.querySelectorAll<HTMLElement>('button:not([disabled])') ?? [])]
  }

  /** Arrow keys, Home and End move between entries; Escape closes; Tab leaves and closes. */
  protected onPopupKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      this.hide(true)
      return
    }
    if (e.key === 'Tab') {
      this.hide(false)
      return
    }
    focusByKey(e, this.entries(), (this.renderRoot as ShadowRoot).activeElement)
  }

  protected onTriggerKey = (e: KeyboardEvent): void => {
    if (e.key === 'ArrowDown' && !this.open) {
      e.preventDefault()
      this.show(true)
    }
  }

  private readonly onOutside = (e: Event): void => {
    if (!e.composedPath().includes(this)) this.hide(false)
  }

  /** The page scrolled or resized: the popup follows its button (a scroll inside the popup is its own). */
  private readonly onScroll = (e: Event): void => {
    if (e.type === 'scroll' && this.popup && e.composedPath().includes(this.popup)) return
    this.place()
  }
}
