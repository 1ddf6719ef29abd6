import { html, type TemplateResult } from 'lit'

/** A confirmation before something that cannot be undone (revoke a key, delete an embed). */
export interface Confirmation {
  readonly heading: string
  readonly text: string
  /** The dangerous choice's label, e.g. "Revoke for good". */
  readonly confirm: string
  readonly busy: boolean
  readonly onConfirm: () => void
  /** "Keep it", Escape, or the dialog closed any other way. */
  readonly onKeep: () => void
}

/**
 * The confirmation as a modal dialog (`showConfirm` opens it): the rest of the page is inert
 * while it is open, Tab and Shift+Tab stay on its two buttons, Escape keeps, and the focus starts
 * on the safe choice. The screen that asked puts the focus back on the control that opened it.
 */
export function confirmDialog(c: Confirmation): TemplateResult {
  return html`<dialog class="confirm" role="alertdialog" aria-modal="true" aria-labelledby="confirm-heading"
    aria-describedby="confirm-text" @cancel=${(e: Event) => {
      e.preventDefault()
      c.onKeep()
    }} @keydown=${trapTab}>
    <h2 id="confirm-heading">${c.heading}</h2>
    <p id="confirm-text">${c.text}</p>
    <div class="actions"><button class="danger" ?disabled=${c.busy} @click=${c.onConfirm}>${c.confirm}</button>
      <button class="keep" @click=${c.onKeep}>Keep it</button></div>
  </dialog>`
}

/** Opens the confirmation drawn in `host` as a modal dialog, the focus on "Keep it". */
export function showConfirm(host: HTMLElement): void {
  const dialog = host.querySelector<HTMLDialogElement>('dialog.confirm')
  if (dialog && !dialog.open) dialog.showModal()
  dialog?.querySelector<HTMLElement>('.keep')?.focus()
}

/** Tab past the last button comes back to the first, Shift+Tab before the first goes to the last. */
function trapTab(e: KeyboardEvent): void {
  if (e.key !== 'Tab') return
  const dialog = e.currentTarget as HTMLElement
  const stops = [...dialog.querySelectorAll<HTMLElement>('button:not([disabled])')]
  const first = stops[0]
  const last = stops.at(-1)
  if (!first || !last) return
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault()
    last.focus()
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault()
    first.focus()
  }
}
