import type { Rollup } from '@strata/contract/rollups'
import { html, nothing } from 'lit'
import type { DashboardDocument } from '../../api/dashboards.js'
import { StudioError } from '../../api/errors.js'
import { messageOf, StudioElement } from '../../ui/base.js'
import type { StudioDashboard } from '../dashboard-editor.js'
import { isTimeColumn, loadModel, type RollupModel } from './model.js'
import {
  draftOf,
  draftProblem,
  modeOf,
  newDraft,
  problemOf,
  type RollupDraft,
  type RollupMode,
  type RollupProblem,
  reasonOf,
  withRollups,
} from './rollup-edits.js'
import { rollupFields } from './rollup-fields.js'
import type { StudioRollupState } from './rollup-state.js'

const MODES: readonly { readonly mode: RollupMode; readonly label: string; readonly hint: string }[] = [
  { mode: 'none', label: 'None', hint: 'Every query goes to the warehouse (or the result cache), as without rollups.' },
  {
    mode: 'auto',
    label: 'Automatic',
    hint: 'Strata derives one rollup per table the structured metrics read, at the finest time grain they use, with every column they group or filter by (SQL metrics are left out).',
  },
  { mode: 'declared', label: 'Declared', hint: 'You choose each rollup’s table, time grain, dimensions and measures.' },
]

/**
 * `<studio-dashboard-rollups>`: the dashboard's rollups (docs/rollups.md). None, Automatic
 * (`"auto"`) or Declared, with a form per declared rollup; **Save rollups** writes the document
 * with PUT, and a refusal is shown at the field it names. Under it, each rollup's state.
 */
export class StudioDashboardRollups extends StudioElement {
  static override properties = {
    doc: { attribute: false },
    mode: { state: true },
    drafts: { state: true },
    model: { state: true },
    problem: { state: true },
    error: { state: true },
    notice: { state: true },
    busy: { state: true },
  }
  editor!: StudioDashboard
  doc!: DashboardDocument
  mode: RollupMode = 'none'
  drafts: readonly RollupDraft[] = []
  model: RollupModel | undefined
  /** The field a refusal named, and its sentence. */
  problem: (RollupProblem & { readonly message: string }) | undefined
  error = ''
  notice = ''
  busy = false

  override connectedCallback(): void {
    super.connectedCallback()
    this.mode = modeOf(this.doc)
    this.drafts = Array.isArray(this.doc.rollups) ? this.doc.rollups.map((r: Rollup) => draftOf(r)) : []
    void this.load()
  }

  private async load(): Promise<void> {
    try {
      this.model = await loadModel(this.api, this.editor.workspaceName)
      if (!this.model) this.error = 'The workspace has no datamart: rollups are declared over a datamart’s tables.'
    } catch (err) {
      this.error = messageOf(err)
    }
  }

  private setMode(mode: RollupMode): void {
    this.mode = mode
    this.problem = undefined
    if (mode === 'declared' && this.drafts.length === 0) this.add()
  }

  private add(): void {
    // a table with a date or time column first: that is where rollups pay (facts over time)
    const tables = this.model?.tables ?? []
    const table = tables.find((t) => t.columns.some(isTimeColumn)) ?? tables[0]
    const time = table?.columns.find(isTimeColumn)?.name ?? ''
    this.drafts = [
      ...this.drafts,
      newDraft(
        table?.key ?? '',
        time,
        this.drafts.map((d) => d.name),
      ),
    ]
    const i = this.drafts.length - 1
    void this.updateComplete.then(() => this.querySelector<HTMLInputElement>(`#ru-name-${i}`)?.focus())
  }

  /** Replaces draft `i` (the form's controls call it on every change). */
  readonly change = (i: number, next: RollupDraft): void => {
    this.drafts = this.drafts.map((d, j) => (j === i ? next : d))
    if (this.problem?.index === i) this.problem = undefined
  }

  readonly removeRollup = (i: number): void => {
    this.drafts = this.drafts.filter((_, j) => j !== i)
    this.problem = undefined
    void this.updateComplete.then(() => this.querySelector<HTMLElement>('#ru-add')?.focus())
  }

  private async save(e: SubmitEvent): Promise<void> {
    e.preventDefault()
    this.error = ''
    this.notice = ''
    this.problem = this.mode === 'declared' ? draftProblem(this.drafts) : undefined
    if (this.problem) return this.focusProblem()
    this.busy = true
    try {
      const next = withRollups(this.doc, this.mode, this.drafts)
      await this.editor.write(next, 'Rollups saved.')
      this.doc = this.editor.doc ?? next
      this.notice =
        this.mode === 'none'
          ? 'Saved: this dashboard has no rollup.'
          : this.mode === 'auto'
            ? 'Saved: Strata derives this dashboard’s rollups from its metrics.'
            : `Saved: ${this.drafts.length} rollup${this.drafts.length === 1 ? '' : 's'}.`
      await this.querySelector<StudioRollupState>('studio-rollup-state')?.reload(true)
    } catch (err) {
      const at = err instanceof StudioError ? problemOf(err.apiMessage) : undefined
      if (at && this.mode === 'declared' && at.index < this.drafts.length) {
        this.problem = { ...at, message: reasonOf(err instanceof StudioError ? err.apiMessage : '') }
        this.focusProblem()
      } else {
        this.error = messageOf(err)
      }
    } finally {
      this.busy = false
    }
  }

  /** Moves the focus to the field the problem names (or its rollup's first field). */
  private focusProblem(): void {
    void this.updateComplete.then(() => {
      const el =
        this.querySelector<HTMLElement>('[aria-invalid="true"], fieldset[data-invalid="true"]') ??
        this.querySelector<HTMLElement>(`#ru-name-${this.problem?.index ?? 0}`)
      el?.focus()
    })
  }

  override render() {
    const m = this.model
    return html`<h2>Rollups</h2>
      <p class="lead">A rollup is a pre-aggregated copy of one table (a <code>GROUP BY</code> of the columns the dashboard groups and filters by), built from the warehouse on a schedule, so that dashboards over a slow or costly warehouse open faster and cost less.</p>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      ${this.notice ? html`<p class="notice ok" role="status">${this.notice}</p>` : nothing}
      <form @submit=${this.save} aria-label="Rollups" class="wide" novalidate>
        <fieldset class="choices"><legend>Rollups of this dashboard</legend>
          ${MODES.map(
            (o) => html`<div class="mode"><label class="check"><input type="radio" name="rollup-mode" value=${o.mode}
                .checked=${this.mode === o.mode} @change=${() => this.setMode(o.mode)} aria-describedby="ru-mode-${o.mode}" />
              <strong>${o.label}</strong></label><small id="ru-mode-${o.mode}">${o.hint}</small></div>`,
          )}
        </fieldset>
        ${this.mode === 'none' ? nothing : html`<p class="notice info">Each tenant’s column is always kept; you do not need to add it.</p>`}
        ${this.mode === 'declared' && m ? this.drafts.map((d, i) => rollupFields(this, m, d, i)) : nothing}
        ${
          this.mode === 'declared' && m && m.tables.length === 0
            ? html`<p class="empty-inline">The datamart has no table: add its tables first.</p>`
            : nothing
        }
        <div class="actions">
          ${this.mode === 'declared' ? html`<button type="button" id="ru-add" @click=${this.add} ?disabled=${!m}>Add a rollup</button>` : nothing}
          <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? 'Saving…' : 'Save rollups'}</button>
        </div>
      </form>
      <studio-rollup-state .api=${this.api} .ref=${{ workspaceName: this.editor.workspaceName, dashboardId: this.editor.dashboardId }}
        .declared=${modeOf(this.doc)}></studio-rollup-state>`
  }
}
