import type { ReactiveController, ReactiveControllerHost } from 'lit'

/**
 * What the dropdowns and the metrics panel need: which popup is open (one at a time), which
 * option is highlighted, and where focus goes once the element has rendered.
 */
export interface Menus {
  /** Whether the popup keyed `id` (a dropdown's trigger id, or `sidebar`) is open. */
  isOpen(id: string): boolean
  /** The highlighted option of the open dropdown (-1: none). */
  readonly active: number
  /** Opens `id` (closing any other) with option `active` highlighted, then focuses the element `focus` (an id). */
  show(id: string, active?: number, focus?: string): void
  /** Closes the open popup; `refocus`: focus goes back to the control that opened it (its id). */
  close(refocus?: boolean): void
  /** Highlights option `index` of the open dropdown. */
  move(index: number): void
}

/**
 * The open popup of the element, as a ReactiveController: it re-renders the host on a change,
 * moves focus after the render (into a panel, back to its trigger), keeps the highlighted
 * option in view, and closes the popup when the pointer goes down outside it. Popups mark
 * their parts (trigger and panel) with `data-menu="<id>"`; a trigger's element id is the popup's id.
 */
export class MenuController implements ReactiveController, Menus {
  private openId: string | undefined
  active = -1
  private focusNext: string | undefined

  constructor(private readonly host: ReactiveControllerHost & HTMLElement & { readonly renderRoot: ParentNode }) {
    host.addController(this)
  }

  hostConnected(): void {
    document.addEventListener('pointerdown', this.onPointerDown, true)
  }

  hostDisconnected(): void {
    document.removeEventListener('pointerdown', this.onPointerDown, true)
  }

  hostUpdated(): void {
    const root = this.host.renderRoot
    if (this.focusNext !== undefined) {
      const el = root.querySelector<HTMLElement>(`#${CSS.escape(this.focusNext)}`)
      this.focusNext = undefined
      el?.focus()
    }
    if (this.openId !== undefined && this.active >= 0) {
      root
        .querySelector<HTMLElement>(`[data-menu="${CSS.escape(this.openId)}"] [data-active]`)
        ?.scrollIntoView({ block: 'nearest' })
    }
  }

  isOpen(id: string): boolean {
    return this.openId === id
  }

  show(id: string, active = -1, focus?: string): void {
    this.openId = id
    this.active = active
    this.focusNext = focus
    this.host.requestUpdate()
  }

  close(refocus = true): void {
    const id = this.openId
    if (id === undefined) return
    this.openId = undefined
    this.active = -1
    if (refocus) this.focusNext = id
    this.host.requestUpdate()
  }

  move(index: number): void {
    if (this.active === index) return
    this.active = index
    this.host.requestUpdate()
  }

  private readonly onPointerDown = (e: Event): void => {
    if (this.openId === undefined) return
    const path = e.composedPath()
    const parts = this.host.renderRoot.querySelectorAll(`[data-menu="${CSS.escape(this.openId)}"]`)
    if (![...parts].some((p) => path.includes(p))) this.close(false)
  }
}
