import { html, type TemplateResult } from 'lit'
import { property } from 'lit/decorators.js'
import { styles } from '../../styles/index.js'
import { archiveIcon, eyeOffIcon, restoreIcon } from '../metric-icons.js'
import type { SelfServeSession } from '../session.js'
import { menuStyles } from './menu.styles.js'
import { PopupElement } from './popup.js'

/**
 * The toolbar's "Archived" button (`<strata-archived-menu>`): the metrics this tenant (or
 * user) archived, each with a Restore button that brings it back onto the dashboard. With
 * `kind` "hidden", the "Hidden" button: the company metrics this tenant hid, restored the same way.
 */
export class StrataArchivedMenu extends PopupElement {
  static override styles = [...styles, menuStyles]

  @property({ attribute: false }) session: SelfServeSession | undefined
  @property({ attribute: false }) items: readonly { readonly metricId: string; readonly name: string }[] = []
  @property() kind: 'archived' | 'hidden' = 'archived'

  private restore(metricId: string, name: string): void {
    this.hide(true)
    void this.session?.act(this.kind === 'hidden' ? 'restore' : 'unarchive', metricId, name)
  }

  override render(): TemplateResult {
    return html`<button
        type="button"
        id="trigger"
        class="button trigger"
        part="${this.kind}-button"
        aria-haspopup="true"
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-controls="popup"
        @click=${() => this.toggle()}
        @keydown=${this.onTriggerKey}
      >
        ${this.kind === 'hidden' ? eyeOffIcon : archiveIcon}<span>${this.kind === 'hidden' ? 'Hidden' : 'Archived'}</span><span class="count" aria-label="${this.items.length} metrics">${this.items.length}</span>
      </button>
      <div id="popup" popover="manual" role="dialog" aria-labelledby="archived-title" part="${this.kind}-list" @keydown=${this.onPopupKey}>
        <h2 class="menu-title" id="archived-title">${this.kind === 'hidden' ? 'Hidden metrics' : 'Archived metrics'}</h2>
        <ul class="archived-list">
          ${this.items.map(
            (m) => html`<li>
              <span class="archived-name" title=${m.name}>${m.name}</span>
              <button
                type="button"
                class="button subtle"
                aria-label="Restore ${m.name}"
                @click=${() => this.restore(m.metricId, m.name)}
              >
                ${restoreIcon}<span>Restore</span>
              </button>
            </li>`,
          )}
        </ul>
      </div>`
  }
}
