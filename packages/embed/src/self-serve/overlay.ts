import { html, LitElement, type TemplateResult } from 'lit'
import { property, state } from 'lit/decorators.js'
import { styles } from '../styles/index.js'
import { buttonStyles, dialogStyles } from './common.styles.js'
import type { ConfirmRequest } from './menus/card-actions.js'
import { overlayStyles } from './menus/menu.styles.js'
import type { OverlayElement, SelfServeSession } from './session.js'

const NOTICE_MS = 5000

/**
 * What the self-serve controls show over the dashboard (`<strata-self-serve-overlay>`, once
 * per dashboard): the metric builder, a confirmation dialog, and a notice of what was done.
 */
export class StrataSelfServeOverlay extends LitElement implements OverlayElement {
  static override styles = [...styles, buttonStyles, dialogStyles, overlayStyles]

  @property({ attribute: false }) session: SelfServeSession | undefined
  @state() private request: ConfirmRequest | undefined
  @state() private notice = ''
  @state() private tone: 'ok' | 'error' = 'ok'
  private answer: ((ok: boolean) => void) | undefined
  private returnTo: HTMLElement | null = null
  private timer: ReturnType<typeof setTimeout> | undefined

  override connectedCallback(): void {
    super.connectedCallback()
    if (this.session) this.session.overlay = this
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    clearTimeout(this.timer)
    this.answer?.(false)
  }

  /** Asks; resolves true on the confirm button, false on Cancel or Escape. */
  confirm(request: ConfirmRequest): Promise<boolean> {
    this.answer?.(false)
    this.returnTo = deepActive()
    this.request = request
    return new Promise((resolve) => {
      this.answer = resolve
    })
  }

  notify(message: string, tone: 'ok' | 'error' = 'ok'): void {
    clearTimeout(this.timer)
    this.notice = message
    this.tone = tone
    this.timer = setTimeout(() => {
      this.notice = ''
    }, NOTICE_MS)
  }

  private settle(ok: boolean): void {
    const answer = this.answer
    this.answer = undefined
    this.request = undefined
    answer?.(ok)
    if (!ok && this.returnTo?.isConnected) this.returnTo.focus()
  }

  protected override updated(): void {
    const dialog = this.renderRoot.querySelector('dialog')
    if (!dialog) return
    if (this.request && !dialog.open) {
      dialog.showModal()
      const focus = this.request.focus ?? (this.request.danger ? 'cancel' : 'confirm')
      dialog.querySelector<HTMLElement>(focus === 'cancel' ? '#cancel' : '#ok')?.focus()
    } else if (!this.request && dialog.open) dialog.close()
  }

  override render(): TemplateResult {
    const r = this.request
    return html`<strata-metric-builder .session=${this.session}></strata-metric-builder>
      <dialog
        role="alertdialog"
        aria-labelledby="confirm-title"
        aria-describedby="confirm-message"
        part="confirm"
        @cancel=${(e: Event) => {
          e.preventDefault()
          this.settle(false)
        }}
      >
        ${
          r
            ? html`<h2 id="confirm-title">${r.title}</h2>
              <p id="confirm-message">${r.message}</p>
              <div class="actions">
                <button type="button" id="cancel" class="button" @click=${() => this.settle(false)}>
                  ${r.cancel ?? 'Cancel'}
                </button>
                <button type="button" id="ok" class="button ${r.danger ? 'danger' : 'primary'}" @click=${() => this.settle(true)}>
                  ${r.confirm}
                </button>
              </div>`
            : ''
        }
      </dialog>
      <div class="toast ${this.tone === 'error' ? 'error' : ''}" role="status" part="notice">${this.notice}</div>`
  }
}

/** The focused element, through shadow roots. */
function deepActive(): HTMLElement | null {
  let el = document.activeElement
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
  return el instanceof HTMLElement ? el : null
}
