import { css, html, LitElement, nothing, type TemplateResult } from 'lit'
import { property } from 'lit/decorators.js'
import type { RuntimeMetric } from '../api/types.js'
import { styles } from '../styles/index.js'
import { buttonStyles } from './common.styles.js'

/** What the note asks of the session: the two answers, and whether one is under way. */
export interface CompanyUpdateActions {
  act(action: 'reset' | 'keep', metricId: string, name: string): Promise<void>
  isBusy(metricId: string): boolean
}

/**
 * `<strata-company-update-note>`: on a card showing this organisation's version of a company
 * metric that the company has changed since (the load's `companyVersionChanged`), a one-line
 * note with two answers: "Use the new version" (drops the version, as the card menu's "Reset to
 * the company's version") and "Keep mine" (POST …/keep-version: the note does not come back
 * until the company changes the metric again).
 */
export class StrataCompanyUpdateNote extends LitElement {
  static override styles = [
    ...styles,
    buttonStyles,
    css`
      :host {
        display: block;
        flex: none;
        padding: 0 16px 4px;
      }
      .note {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 4px 8px;
        margin: 0;
        padding: 4px 8px;
        border-radius: 6px;
        background: color-mix(in srgb, var(--_primary) 8%, transparent);
        font-size: 12px;
        line-height: 1.4;
      }
      .text {
        flex: 1 1 auto;
        min-width: 0;
      }
      .link {
        border: 0;
        background: none;
        padding: 2px 0;
        color: var(--_primary);
        font: inherit;
        font-weight: 600;
        cursor: pointer;
        text-decoration: underline;
        text-underline-offset: 2px;
      }
      .link:disabled {
        opacity: 0.6;
        cursor: default;
      }
      .link:focus-visible {
        outline: 2px solid var(--_primary);
        outline-offset: 2px;
        border-radius: 2px;
      }
      /* a finger's size on touch and narrow screens: each answer 44 px tall, the text still a link */
      @media (pointer: coarse), (max-width: 599px) {
        .note {
          padding-block: 0;
          gap: 0 16px;
        }
        .text {
          flex-basis: 100%;
          padding-top: 8px;
        }
        .link {
          min-height: 44px;
          padding: 0 2px;
        }
      }
    `,
  ]

  @property({ attribute: false }) metric: RuntimeMetric | undefined
  @property({ attribute: false }) actions: CompanyUpdateActions | undefined

  override render(): TemplateResult | typeof nothing {
    const { metric, actions } = this
    if (!metric || !actions) return nothing
    const busy = actions.isBusy(metric.metricId)
    return html`<p class="note" part="company-update-note" role="note">
      <span class="text">The company updated this metric.</span>
      <button
        type="button"
        class="link"
        part="company-update-use-new"
        ?disabled=${busy}
        @click=${() => void actions.act('reset', metric.metricId, metric.name)}
      >
        Use the new version
      </button>
      <button
        type="button"
        class="link"
        part="company-update-keep"
        ?disabled=${busy}
        @click=${() => void actions.act('keep', metric.metricId, metric.name)}
      >
        Keep mine
      </button>
    </p>`
  }
}

/** The note for one card, or nothing when the company has not changed its metric (or the token may not update metrics). */
export function companyUpdateNote(
  metric: RuntimeMetric,
  mayUpdate: boolean,
  actions: CompanyUpdateActions,
): TemplateResult | typeof nothing {
  if (!mayUpdate || !metric.tenantVersion || !metric.companyVersionChanged) return nothing
  return html`<strata-company-update-note
    exportparts="company-update-note, company-update-use-new, company-update-keep"
    .metric=${metric}
    .actions=${actions}
  ></strata-company-update-note>`
}
