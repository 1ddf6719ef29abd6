import { html, nothing, type TemplateResult } from 'lit'
import type { ComparisonPeriod, Model, NumberStyle } from '../../api/types.js'
import { type BuilderState, dimensionLabel, measureLabel, type Problem } from './builder-state.js'
import {
  COMPARISON_LABELS,
  COMPARISON_PERIODS,
  FORMAT_LABELS,
  FORMAT_STYLES,
  formattable,
  MAX_DECIMALS,
  setComparison,
  setFormat,
  showsComparison,
  takesDecimals,
  withCurrency,
  withDecimals,
  withStyle,
} from './formats.js'

/** What the format and comparison controls read and call. */
export interface FormatView {
  readonly model: Model | undefined
  readonly state: BuilderState
  /** After a save attempt: every problem is shown. */
  readonly showAll: boolean
  update(next: BuilderState): void
}

/** The id of an output column's format control (by its item's key: output names may hold any character). */
export const formatControlId = (key: number, part: 'style' | 'currency' | 'decimals') => `bd-format-${key}-${part}`

/**
 * "Formats": one compact row per output column (a measure, a dimension that is not a date):
 * the style (Automatic: the element infers one from the column's name), the currency's code
 * with Currency, the decimals with a quantity. What is set is saved in the definition's
 * `formats` and drawn by the preview at once.
 */
export function renderFormats(v: FormatView, problems: readonly Problem[]): TemplateResult | typeof nothing {
  const s = v.state
  const outputs = formattable(s, v.model)
  if (outputs.length === 0) return nothing
  const labelOf = (key: number) => {
    const m = s.measures.find((x) => x.key === key)
    if (m) return measureLabel(v.model, s, m)
    const d = s.dimensions.find((x) => x.key === key)
    return d ? dimensionLabel(v.model, s, d) : ''
  }
  return html`<fieldset class="bd-formats" part="builder-formats">
    <legend>Formats</legend>
    ${outputs.map((o) => {
      const f = s.formats?.[o.name]
      const label = labelOf(o.key)
      const problem = problems.find((p) => p.where === `format-${o.name}`)
      const shown = problem && (v.showAll || (f?.currency ?? '') !== '') ? problem : undefined
      const errorId = `bd-format-${o.key}-error`
      const set = (next: typeof f) => v.update(setFormat(s, o.name, next))
      return html`<div class="bd-format" data-output=${o.name}>
        <label class="bd-format-name" for=${formatControlId(o.key, 'style')} title=${label}>${label}</label>
        <select
          id=${formatControlId(o.key, 'style')}
          class="bd-control"
          @change=${(e: Event) => set(withStyle(f, (e.target as HTMLSelectElement).value as NumberStyle | ''))}
        >
          <option value="" ?selected=${!f}>Automatic</option>
          ${FORMAT_STYLES.map((st) => html`<option value=${st} ?selected=${f?.style === st}>${FORMAT_LABELS[st]}</option>`)}
        </select>
        ${
          f?.style === 'currency'
            ? html`<input
              id=${formatControlId(o.key, 'currency')}
              class="bd-control bd-currency"
              aria-label="Currency of ${label} (ISO code)"
              title="Three-letter ISO code: USD, EUR, JPY"
              maxlength="3"
              autocomplete="off"
              spellcheck="false"
              aria-invalid=${shown ? 'true' : 'false'}
              aria-describedby=${shown ? errorId : nothing}
              .value=${f.currency ?? ''}
              @input=${(e: Event) => set(withCurrency(f, (e.target as HTMLInputElement).value))}
            />`
            : nothing
        }
        ${
          f && takesDecimals(f.style)
            ? html`<select
              id=${formatControlId(o.key, 'decimals')}
              class="bd-control bd-decimals"
              aria-label="Decimals of ${label}"
              @change=${(e: Event) => set(withDecimals(f, (e.target as HTMLSelectElement).value))}
            >
              <option value="" ?selected=${f.decimals === undefined}>Auto decimals</option>
              ${Array.from(
                { length: MAX_DECIMALS + 1 },
                (_, n) =>
                  html`<option value=${n} ?selected=${f.decimals === n}>${n} decimal${n === 1 ? '' : 's'}</option>`,
              )}
            </select>`
            : nothing
        }
        ${shown ? html`<p class="bd-item-error" id=${errorId}>${shown.message}</p>` : nothing}
      </div>`
    })}
  </fieldset>`
}

/**
 * "Compare with" (the company's mode: an end user's definition has no comparison): on a single
 * value, the period its first measure is compared with; the card shows the change (▲/▼ %).
 */
export function renderComparison(v: FormatView): TemplateResult | typeof nothing {
  const s = v.state
  if (!showsComparison(s)) return nothing
  return html`<div class="bd-compare">
    <label class="bd-label" for="bd-compare">Compare with</label>
    <select
      id="bd-compare"
      class="bd-control"
      part="builder-compare"
      aria-describedby="bd-compare-hint"
      @change=${(e: Event) =>
        v.update(
          setComparison(s, ((e.target as HTMLSelectElement).value || undefined) as ComparisonPeriod | undefined),
        )}
    >
      <option value="" ?selected=${!s.comparison}>Nothing</option>
      ${COMPARISON_PERIODS.map(
        (p) => html`<option value=${p} ?selected=${s.comparison === p}>${COMPARISON_LABELS[p]}</option>`,
      )}
    </select>
    <p class="bd-hint" id="bd-compare-hint">The number shows its change against this period (▲ or ▼ with a percentage).</p>
  </div>`
}
