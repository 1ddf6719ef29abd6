import type { RollupStatus } from '@strata/contract/rollups'
import { html, nothing } from 'lit'
import type { DashboardRef } from '../../api/dashboards.js'
import { rollupsApi } from '../../api/rollups.js'
import { cell, messageOf, StudioElement } from '../../ui/base.js'
import type { RollupMode } from './rollup-edits.js'

/** How often the state is read again while a build runs or is due. */
const POLL_MS = 1500
/** Polling stops after this many reads without a click (a server that builds nothing leaves them due). */
const MAX_POLLS = 200

const STATES: Record<RollupStatus['state'], string> = {
  stale: 'Stale',
  building: 'Building',
  ready: 'Ready',
  failed: 'Failed',
}

/**
 * `<studio-rollup-state>`: each rollup of the dashboard with its state (a badge), rows, size,
 * last and next refresh, lag and last error, and **Refresh now** for one or all. While a build
 * runs or is due it reads the state again every 1.5 s; the rows keep their place as it changes.
 */
export class StudioRollupState extends StudioElement {
  static override properties = {
    ref: { attribute: false },
    declared: { attribute: false },
    items: { state: true },
    error: { state: true },
    notice: { state: true },
  }
  ref!: DashboardRef
  /** What the saved document declares (the empty state says what to do about it). */
  declared: RollupMode = 'none'
  items: readonly RollupStatus[] | undefined
  error = ''
  notice = ''
  private timer: ReturnType<typeof setTimeout> | undefined
  private polls = 0

  override connectedCallback(): void {
    super.connectedCallback()
    void this.reload()
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    clearTimeout(this.timer)
  }

  /** Reads the state now, then again while something builds or is due; `fresh`: after a save (the last notice is old). */
  async reload(fresh = false): Promise<void> {
    clearTimeout(this.timer)
    if (fresh) {
      this.notice = ''
      this.polls = 0
    }
    try {
      this.items = await rollupsApi(this.api).list(this.ref)
      this.error = ''
    } catch (err) {
      this.error = messageOf(err)
    }
    const busy = (this.items ?? []).some((r) => r.state === 'building' || due(r))
    if (busy && this.polls++ < MAX_POLLS && this.isConnected) this.timer = setTimeout(() => void this.reload(), POLL_MS)
  }

  private async refresh(rollup?: string): Promise<void> {
    this.notice = ''
    this.error = ''
    try {
      await rollupsApi(this.api).refresh(this.ref, rollup)
      this.notice = rollup
        ? `Refresh of ${rollup} requested: it builds in the background.`
        : 'Refresh of every rollup requested: they build in the background.'
      this.polls = 0
      await this.reload()
    } catch (err) {
      this.error = messageOf(err)
    }
  }

  override render() {
    const items = this.items
    return html`<h2 id="ru-state">State</h2>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      ${this.notice ? html`<p class="notice ok" role="status">${this.notice}</p>` : nothing}
      ${
        items === undefined
          ? this.error
            ? nothing
            : html`<p role="status">Loading…</p>`
          : items.length === 0
            ? this.empty()
            : html`<div class="actions tight"><button type="button" @click=${() => this.refresh()}>Refresh all now</button></div>
              <div class="table-wrap"><table class="stack rollup-states" aria-labelledby="ru-state">
              <thead><tr>${HEADERS.map((h) => html`<th scope="col">${h || html`<span class="sr-only">Actions</span>`}</th>`)}</tr></thead>
              <tbody>${items.map((r) => this.row(r))}</tbody></table></div>`
      }`
  }

  private empty() {
    return this.declared === 'none'
      ? html`<div class="empty"><strong>No rollup yet</strong>
          <p>A rollup keeps a pre-aggregated copy of a table, so that this dashboard opens faster and costs the warehouse less. Choose <b>Automatic</b> or <b>Declared</b> above, then <b>Save rollups</b>.</p></div>`
      : html`<div class="empty"><strong>Nothing to build yet</strong>
          <p>${
            this.declared === 'auto'
              ? 'Automatic rollups come from the structured metrics: add a metric built on a table (Build), and its rollup appears here.'
              : 'Save the rollups above: each one then appears here with its state.'
          }</p></div>`
  }

  private row(r: RollupStatus) {
    const building = r.state === 'building'
    return html`<tr data-rollup=${r.name}>
      ${cell(HEADERS[0] ?? '', html`<strong class="rollup-name">${r.name}</strong>`)}
      ${cell(HEADERS[1] ?? '', html`<span class="badge state-${r.state}">${STATES[r.state]}</span>${due(r) && !building ? html` <span class="muted">(queued)</span>` : nothing}`)}
      ${cell(HEADERS[2] ?? '', r.rows.toLocaleString())}
      ${cell(HEADERS[3] ?? '', size(r.bytes))}
      ${cell(HEADERS[4] ?? '', r.lastRefreshAt ? new Date(r.lastRefreshAt).toLocaleString() : 'Never')}
      ${cell(HEADERS[5] ?? '', r.nextRefreshAt ? (due(r) ? 'Due now' : new Date(r.nextRefreshAt).toLocaleString()) : 'When the definition changes')}
      ${cell(HEADERS[6] ?? '', r.lagSeconds === null ? '—' : duration(r.lagSeconds))}
      ${cell(HEADERS[7] ?? '', r.lastError ? html`<span class="rollup-error">${r.lastError}</span>` : '—')}
      <td><button type="button" ?disabled=${building} aria-label="Refresh ${r.name} now" @click=${() => this.refresh(r.name)}>Refresh now</button></td>
    </tr>`
  }
}

const HEADERS = ['Rollup', 'State', 'Rows', 'Size', 'Last refresh', 'Next refresh', 'Lag', 'Last error', '']

/** Due now: the next build's time has come, and a scheduler will take it. */
const due = (r: RollupStatus): boolean => r.nextRefreshAt !== null && Date.parse(r.nextRefreshAt) <= Date.now()

/** Bytes as people read them: 812 B, 14.2 KB, 3.1 MB. */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let n = bytes / 1024
  let u = 0
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024
    u++
  }
  return `${n.toFixed(1)} ${units[u]}`
}

/** Seconds as people read them: 45 s, 12 min, 3 h, 2 days. */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`
  return `${Math.round(seconds / 86_400)} days`
}
