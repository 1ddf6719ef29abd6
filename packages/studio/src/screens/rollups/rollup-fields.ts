import { html, nothing, type TemplateResult } from 'lit'
import { isTimeColumn, type RollupModel } from './model.js'
import { AGGREGATES, GRAINS, type MeasureDraft, type RollupDraft, type RollupProblem } from './rollup-edits.js'

/** What the fields need of the panel: the refusal to show, and how to change or remove a draft. */
export interface RollupFieldsHost {
  readonly problem: (RollupProblem & { readonly message: string }) | undefined
  readonly change: (i: number, next: RollupDraft) => void
  readonly removeRollup: (i: number) => void
}

const value = (e: Event): string => (e.target as HTMLInputElement | HTMLSelectElement).value

/**
 * One declared rollup as a fieldset: name, table, time column and grain, dimensions (the table's
 * columns and those of the tables its relationships reach), measures, refresh. The refusal that
 * names one of its fields is shown under that field, which is marked invalid.
 */
export function rollupFields(host: RollupFieldsHost, model: RollupModel, d: RollupDraft, i: number): TemplateResult {
  const p = host.problem?.index === i ? host.problem : undefined
  const set = (patch: Partial<RollupDraft>) => host.change(i, { ...d, ...patch })
  /** The error under field `field` of this rollup, when the refusal names it. */
  const err = (field: string) =>
    p?.field === field ? html`<span class="field-error" id="ru-err-${i}" role="alert">${p.message}</span>` : nothing
  const invalid = (field: string) => (p?.field === field ? 'true' : 'false')
  const described = (field: string, hint?: string) =>
    [p?.field === field ? `ru-err-${i}` : '', hint ?? ''].filter(Boolean).join(' ') || nothing
  const known = new Set([
    'name',
    'from',
    'time.column',
    'time.grain',
    'dimensions',
    'refresh.every',
    'refresh.incremental',
  ])
  const measureAt = p ? /^measures\[(\d+)\](?:\.(name|aggregate|column))?$/.exec(p.field) : null
  const elsewhere = p && !known.has(p.field) && !measureAt
  const table = model.tables.find((t) => t.key === d.from)
  const columns = table?.columns ?? []
  const pickTable = (from: string) => {
    const t = model.tables.find((x) => x.key === from)
    set({
      from,
      timeColumn: t?.columns.find(isTimeColumn)?.name ?? '',
      dimensions: [],
      measures: d.measures.map((m) => ({ ...m, column: '' })),
    })
  }
  const toggle = (dim: string, on: boolean) =>
    set({ dimensions: on ? [...d.dimensions, dim] : d.dimensions.filter((x) => x !== dim) })
  const setMeasure = (k: number, patch: Partial<MeasureDraft>) =>
    set({ measures: d.measures.map((m, j) => (j === k ? { ...m, ...patch } : m)) })
  const dims = [
    { title: `Columns of ${d.from}`, options: columns.filter((c) => c.name !== d.timeColumn).map((c) => c.name) },
    ...(model.reach.get(d.from) ?? []).map((key) => ({
      title: `Joined: ${key}`,
      options: (model.tables.find((t) => t.key === key)?.columns ?? []).map((c) => `${key}.${c.name}`),
    })),
  ]
  return html`<fieldset class="rollup ${p ? 'invalid' : ''}">
    <legend>Rollup ${i + 1}${d.name ? ` (${d.name})` : ''}</legend>
    ${elsewhere ? html`<p class="field-error" id="ru-err-${i}" role="alert">${p.message}</p>` : nothing}
    <div class="grid">
      <div class="field"><label for="ru-name-${i}">Name</label>
        <input id="ru-name-${i}" .value=${d.name} spellcheck="false" maxlength="63" aria-invalid=${invalid('name')}
          aria-describedby=${described('name', `ru-name-hint-${i}`)} @input=${(e: Event) => set({ name: value(e) })} />
        <small id="ru-name-hint-${i}">Letters, digits, _ and -.</small>${err('name')}</div>
      <div class="field"><label for="ru-from-${i}">Table</label>
        <select id="ru-from-${i}" aria-invalid=${invalid('from')} aria-describedby=${described('from')}
          @change=${(e: Event) => pickTable(value(e))}>
          ${table ? nothing : html`<option value=${d.from} selected>${d.from || 'Pick a table'}</option>`}
          ${model.tables.map((t) => html`<option value=${t.key} ?selected=${t.key === d.from}>${t.key}</option>`)}
        </select>${err('from')}</div>
      <div class="field"><label for="ru-time-${i}">Time column</label>
        <select id="ru-time-${i}" aria-invalid=${invalid('time.column')} aria-describedby=${described('time.column', `ru-time-hint-${i}`)}
          @change=${(e: Event) => set({ timeColumn: value(e), dimensions: d.dimensions.filter((x) => x !== value(e)) })}>
          <option value="" ?selected=${!d.timeColumn}>No time column</option>
          ${columns.filter(isTimeColumn).map((c) => html`<option ?selected=${c.name === d.timeColumn}>${c.name}</option>`)}
          ${d.timeColumn && !columns.some((c) => c.name === d.timeColumn) ? html`<option selected>${d.timeColumn}</option>` : nothing}
        </select><small id="ru-time-hint-${i}">Its files are split by month of it.</small>${err('time.column')}</div>
      <div class="field"><label for="ru-grain-${i}">Time grain</label>
        <select id="ru-grain-${i}" ?disabled=${!d.timeColumn} aria-invalid=${invalid('time.grain')} aria-describedby=${described('time.grain')}
          @change=${(e: Event) => set({ grain: value(e) as RollupDraft['grain'] })}>
          ${GRAINS.map((g) => html`<option ?selected=${g === d.grain}>${g}</option>`)}
        </select>${err('time.grain')}</div>
    </div>
    <fieldset class="dims" id="ru-dims-${i}" tabindex="-1" data-invalid=${invalid('dimensions')} aria-describedby=${described('dimensions')}>
      <legend>Dimensions</legend>
      <small class="muted">The columns end users group and filter by: queries on other columns go to the warehouse.</small>
      ${err('dimensions')}
      ${dims.map(
        (
          g,
        ) => html`<div class="dim-group" role="group" aria-label=${g.title}><p class="dim-title" aria-hidden="true">${g.title}</p>
          ${g.options.length === 0 ? html`<p class="muted">No column.</p>` : nothing}
          <div class="dim-list">${g.options.map(
            (o) => html`<label class="check"><input type="checkbox"
              .checked=${d.dimensions.includes(o)} @change=${(e: Event) => toggle(o, (e.target as HTMLInputElement).checked)} />
              <span>${o.split('.').at(-1)}</span></label>`,
          )}</div></div>`,
      )}
    </fieldset>
    <fieldset class="measures"><legend>Measures</legend>
      ${d.measures.map((m, k) => {
        const at = (f: string) =>
          measureAt && Number(measureAt[1]) === k && (measureAt[2] ?? 'name') === f ? p : undefined
        const e = (f: string) =>
          at(f) ? html`<span class="field-error" id="ru-err-${i}" role="alert">${p?.message}</span>` : nothing
        const bad = (f: string) => (at(f) ? 'true' : 'false')
        const desc = (f: string) => (at(f) ? `ru-err-${i}` : nothing)
        return html`<div class="measure grid">
          <div class="field"><label for="ru-m-${i}-${k}-name">Measure name</label>
            <input id="ru-m-${i}-${k}-name" .value=${m.name} spellcheck="false" aria-invalid=${bad('name')} aria-describedby=${desc('name')}
              @input=${(ev: Event) => setMeasure(k, { name: value(ev) })} />${e('name')}</div>
          <div class="field"><label for="ru-m-${i}-${k}-aggregate">Aggregate</label>
            <select id="ru-m-${i}-${k}-aggregate" aria-invalid=${bad('aggregate')} aria-describedby=${desc('aggregate')}
              @change=${(ev: Event) => setMeasure(k, { aggregate: value(ev) as MeasureDraft['aggregate'] })}>
              ${AGGREGATES.map((a) => html`<option value=${a.value} ?selected=${a.value === m.aggregate}>${a.label}</option>`)}
            </select>${e('aggregate')}</div>
          <div class="field"><label for="ru-m-${i}-${k}-column">Column</label>
            <select id="ru-m-${i}-${k}-column" aria-invalid=${bad('column')} aria-describedby=${desc('column')}
              @change=${(ev: Event) => setMeasure(k, { column: value(ev) })}>
              <option value="" ?selected=${!m.column}>Rows (count only)</option>
              ${columns.map((c) => html`<option ?selected=${c.name === m.column}>${c.name}</option>`)}
            </select>${e('column')}</div>
          <button type="button" class="link" ?disabled=${d.measures.length === 1}
            aria-label="Remove measure ${k + 1} (${m.name}) of rollup ${i + 1}"
            @click=${() => set({ measures: d.measures.filter((_, j) => j !== k) })}>Remove</button>
        </div>`
      })}
      <button type="button" @click=${() => set({ measures: [...d.measures, { name: `measure_${d.measures.length + 1}`, aggregate: 'sum', column: '' }] })}>Add a measure</button>
    </fieldset>
    <div class="grid">
      <div class="field"><label for="ru-every-${i}">Refresh every</label>
        <input id="ru-every-${i}" .value=${d.every} spellcheck="false" aria-invalid=${invalid('refresh.every')}
          aria-describedby=${described('refresh.every', `ru-every-hint-${i}`)} @input=${(e: Event) => set({ every: value(e) })} />
        <small id="ru-every-hint-${i}">30m, 1h, 12 hours, 1 day, 2w. Empty: once a day.</small>${err('refresh.every')}</div>
      <div class="field"><label for="ru-incr-${i}">Incremental window</label>
        <input id="ru-incr-${i}" .value=${d.incremental} spellcheck="false" ?disabled=${!d.timeColumn} aria-invalid=${invalid('refresh.incremental')}
          aria-describedby=${described('refresh.incremental', `ru-incr-hint-${i}`)} @input=${(e: Event) => set({ incremental: value(e) })} />
        <small id="ru-incr-hint-${i}">Optional, e.g. 7 days: only that far back is rebuilt. Needs a time column.</small>${err('refresh.incremental')}</div>
    </div>
    <button type="button" class="link" @click=${() => host.removeRollup(i)} aria-label="Remove rollup ${i + 1} (${d.name})">Remove this rollup</button>
  </fieldset>`
}
