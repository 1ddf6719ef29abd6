import { asWritten, inferColumnFormat } from '@strata/contract/column-formats'
import { css, html, LitElement, nothing, type TemplateResult } from 'lit'
import { property, state } from 'lit/decorators.js'
import { StrataApiError } from '../../api/errors.js'
import type { Drill, QueryResult, RuntimeMetric } from '../../api/types.js'
import { formatNumber, toNumber } from '../../lib/numbers.js'
import { styles } from '../../styles/index.js'
import { buttonStyles, dialogStyles } from '../common.styles.js'
import { closeIcon, downloadIcon } from '../metric-icons.js'
import type { SelfServeSession } from '../session.js'
import { rowsToCsv } from './underlying-csv.js'

/** Rows a page of POST …/underlying holds (docs/runtime-api.md#the-rows-behind-a-metric). */
const PAGE_ROWS = 100
/** At most this many pages go into one CSV download (5,000 rows). */
const CSV_PAGES = 50

type Sort = { readonly column: string; readonly direction: 'ascending' | 'descending' }

/**
 * "View underlying data" (`<strata-underlying-dialog>`, once per dashboard): a modal dialog with
 * the rows behind a card's metric under the filters in effect, 100 a page, each column sortable
 * (by the server, across every page: a new sort goes back to page 1), and a CSV download when the token may download. The native modal
 * dialog keeps focus inside; Escape closes it and focus returns to what opened it.
 */
export class StrataUnderlyingDialog extends LitElement {
  static override styles = [
    ...styles,
    buttonStyles,
    dialogStyles,
    css`
      dialog {
        padding: 0;
        width: min(1100px, calc(100vw - 24px));
        max-height: min(760px, calc(100dvh - 24px));
        display: none;
        flex-direction: column;
      }
      dialog[open] {
        display: flex;
      }
      .body {
        flex: 1;
        min-height: 160px;
        overflow: auto;
        overscroll-behavior: contain;
      }
      table {
        border-collapse: collapse;
        width: 100%;
        font-variant-numeric: tabular-nums;
      }
      th {
        position: sticky;
        top: 0;
        background: var(--_surface, #fff);
        box-shadow: inset 0 -1px 0 var(--_border, #e5e7eb);
        text-align: left;
        padding: 0;
        white-space: nowrap;
      }
      th button {
        all: unset;
        box-sizing: border-box;
        display: flex;
        gap: 4px;
        align-items: center;
        width: 100%;
        padding: 10px 12px;
        min-height: 40px;
        font-weight: 600;
        cursor: pointer;
      }
      th button:focus-visible {
        outline: 2px solid var(--_primary, #2563eb);
        outline-offset: -2px;
      }
      th button:hover {
        background: color-mix(in srgb, var(--_text, #111827) 5%, transparent);
      }
      .arrow {
        color: var(--_muted, #6b7280);
        font-size: 12px;
      }
      td {
        padding: 8px 12px;
        border-bottom: 1px solid var(--_border, #e5e7eb);
        white-space: nowrap;
        max-width: 320px;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      td.num {
        text-align: right;
      }
      tbody tr:nth-child(even) td {
        background: color-mix(in srgb, var(--_text, #111827) 2.5%, transparent);
      }
      /* while a new sort or page loads, the rows shown stay in place, dimmed, under a moving bar */
      .dialog-head {
        position: relative;
      }
      .progress {
        position: absolute;
        left: 0;
        right: 0;
        bottom: -1px;
        height: 2px;
        overflow: hidden;
        pointer-events: none;
      }
      .progress::before {
        content: '';
        position: absolute;
        inset: 0 auto 0 0;
        width: 35%;
        background: var(--_primary, #2563eb);
        animation: progress 1.1s ease-in-out infinite;
      }
      @keyframes progress {
        from {
          transform: translateX(-100%);
        }
        to {
          transform: translateX(300%);
        }
      }
      @media (prefers-reduced-motion: reduce) {
        .progress::before {
          width: 100%;
          animation: none;
          opacity: 0.5;
        }
      }
      .body[aria-busy='true'] tbody {
        opacity: 0.45;
      }
      .hint {
        font-style: italic;
      }
      .state {
        padding: 40px 24px;
        text-align: center;
        color: var(--_muted, #6b7280);
      }
      .state strong {
        display: block;
        color: var(--_text, #111827);
        margin-bottom: 6px;
      }
      .state .button {
        margin-top: 14px;
      }
      .count {
        flex: 1;
        min-width: 0;
        color: var(--_muted, #6b7280);
        font-size: 13px;
        /* one line, so "Loading page 2…" never pushes the buttons down */
        white-space: nowrap;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      .dialog-foot {
        flex-wrap: wrap;
      }
      .dialog-foot .button {
        white-space: nowrap;
      }
      .icon-button svg,
      .button svg {
        width: 16px;
        height: 16px;
      }
      @media (pointer: coarse), (max-width: 599px) {
        th button {
          min-height: 44px;
        }
      }
      @media (max-width: 560px) {
        dialog {
          width: 100vw;
          max-width: 100vw;
          height: 100dvh;
          max-height: 100dvh;
          margin: 0;
          border-radius: 0;
        }
        .count {
          flex-basis: 100%;
        }
        .dialog-foot .button {
          flex: 1 1 auto;
          padding-inline: 10px;
          justify-content: center;
          min-height: 44px;
        }
      }
    `,
  ]

  @property({ attribute: false }) session: SelfServeSession | undefined
  @state() private metric: RuntimeMetric | undefined
  @state() private page = 1
  @state() private result: QueryResult | undefined
  @state() private error: StrataApiError | undefined
  @state() private loading = false
  @state() private downloading = false
  @state() private sort: Sort | undefined
  /** What is loading while the rows shown stay (dimmed): "Sorting by amount…", "Loading page 2…". */
  @state() private pending: string | undefined
  private returnTo: HTMLElement | null = null
  /** The drill-down the rows are under (the card's, or a clicked segment's: "See these rows"). */
  private drill: Drill | undefined
  /** The clicked segment, named in the title ("Category = Books"). */
  private segment: string | undefined
  private abort: AbortController | undefined

  override connectedCallback(): void {
    super.connectedCallback()
    if (this.session) this.session.underlying = this
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    this.abort?.abort()
  }

  /** Opens the rows of `metric` (page 1); focus goes back to `opener` when it closes. */
  show(metric: RuntimeMetric, opener: HTMLElement | null, drill?: Drill, segment?: string): void {
    this.returnTo = opener
    this.drill = drill ?? this.session?.host.drill?.(metric.metricId)
    this.segment = segment
    this.metric = metric
    this.sort = undefined
    void this.load(1)
  }

  close(): void {
    this.abort?.abort()
    this.metric = undefined
    this.result = undefined
    this.error = undefined
    // outside a modal dialog nothing takes focus: close it before focus goes back
    this.renderRoot.querySelector('dialog')?.close()
    const back = this.returnTo
    this.returnTo = null
    if (back?.isConnected) back.focus()
  }

  private filters(): Record<string, unknown> {
    const dashboardFilter = this.session?.host.dashboardFilter()
    return {
      ...(dashboardFilter && Object.keys(dashboardFilter).length ? { dashboardFilter } : {}),
      ...(this.drill ? { drill: this.drill } : {}),
    }
  }

  private fetchPage(metricId: string, pageNumber: number, signal?: AbortSignal): Promise<QueryResult> {
    const api = this.session?.host.client
    if (!api) return Promise.reject(new StrataApiError('CLIENT_ERROR', 0, 'not connected'))
    const s = this.sort
    const sort = s ? { column: s.column, direction: s.direction === 'ascending' ? 'asc' : 'desc' } : undefined
    return api.call<QueryResult>(
      'POST',
      '/underlying',
      { metricId, pageNumber, ...this.filters(), ...(sort ? { sort } : {}) },
      signal,
    )
  }

  private async load(page: number, pending?: string): Promise<void> {
    const metric = this.metric
    if (!metric) return
    this.abort?.abort()
    const abort = new AbortController()
    this.abort = abort
    this.loading = true
    this.pending = pending
    this.error = undefined
    try {
      const result = await this.fetchPage(metric.metricId, page, abort.signal)
      if (abort.signal.aborted) return
      this.result = result
      this.page = page
    } catch (e) {
      if (abort.signal.aborted) return
      this.error = e instanceof StrataApiError ? e : new StrataApiError('CLIENT_ERROR', 0, String(e))
      this.session?.host.report(this.error)
    } finally {
      if (this.abort === abort) {
        this.loading = false
        this.pending = undefined
      }
    }
  }

  private async download(): Promise<void> {
    const metric = this.metric
    const first = this.result
    if (!metric || !first || this.downloading) return
    this.downloading = true
    try {
      const pages = Math.min(CSV_PAGES, Math.ceil(first.totalRecords / PAGE_ROWS))
      const rows: Record<string, unknown>[] = []
      // four pages at a time, in order
      for (let p = 1; p <= pages; p += 4) {
        const batch = [p, p + 1, p + 2, p + 3].filter((n) => n <= pages)
        const answers = await Promise.all(
          batch.map((n) => (n === this.page ? Promise.resolve(first) : this.fetchPage(metric.metricId, n))),
        )
        for (const a of answers) rows.push(...a.data)
      }
      const csv = rowsToCsv(columnsOf(first), rows)
      const link = document.createElement('a')
      link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }))
      link.download = `${metric.metricId}-rows.csv`
      link.dataset.rows = String(rows.length)
      this.renderRoot.appendChild(link)
      link.click()
      link.remove()
      setTimeout(() => URL.revokeObjectURL(link.href), 30_000)
      this.session?.overlay?.notify(
        first.totalRecords > rows.length
          ? `Downloaded the first ${rows.length.toLocaleString()} of ${first.totalRecords.toLocaleString()} rows.`
          : `Downloaded ${rows.length.toLocaleString()} rows.`,
      )
    } catch (e) {
      const error = e instanceof StrataApiError ? e : new StrataApiError('CLIENT_ERROR', 0, String(e))
      this.session?.host.report(error)
      this.session?.overlay?.notify(`Could not download the rows: ${error.message}`, 'error')
    } finally {
      this.downloading = false
    }
  }

  private toggleSort(column: string): void {
    const s = this.sort
    this.sort =
      s?.column !== column
        ? { column, direction: 'ascending' }
        : s.direction === 'ascending'
          ? { column, direction: 'descending' }
          : undefined
    // the server sorts every page: a new order starts again at its first page
    void this.load(1, this.sort ? `Sorting by ${column}…` : 'Back to the default order…')
  }

  protected override updated(): void {
    const dialog = this.renderRoot.querySelector('dialog')
    if (!dialog) return
    if (this.metric && !dialog.open) {
      dialog.showModal()
      dialog.querySelector<HTMLElement>('#close')?.focus()
    } else if (!this.metric && dialog.open) dialog.close()
  }

  override render(): TemplateResult {
    const m = this.metric
    const r = this.result
    const canDownload = this.session?.host.embed()?.permissions.download === true
    const total = r?.totalRecords ?? 0
    const from = total ? (this.page - 1) * PAGE_ROWS + 1 : 0
    const to = r ? from + r.data.length - (total ? 1 : 0) : 0
    const last = Math.max(1, Math.ceil(total / PAGE_ROWS))
    return html`<dialog
      aria-labelledby="rows-title"
      part="underlying-dialog"
      @cancel=${(e: Event) => {
        e.preventDefault()
        this.close()
      }}
    >
      ${
        m
          ? html`<div class="dialog-head">
              <h2 id="rows-title">Rows behind “${m.name}”${this.segment ? html`<span class="segment"> · ${this.segment}</span>` : nothing}</h2>
              <button type="button" id="close" class="icon-button" aria-label="Close" title="Close" @click=${() => this.close()}>
                ${closeIcon}
              </button>
              ${this.loading && r ? html`<div class="progress" part="underlying-progress" aria-hidden="true"></div>` : nothing}
            </div>
            <div class="body" aria-busy=${this.loading ? 'true' : 'false'}>${this.renderBody()}</div>
            <div class="dialog-foot">
              <span class="count" role="status">${
                this.loading && !r
                  ? 'Loading rows…'
                  : r && total
                    ? `Rows ${from.toLocaleString()}–${to.toLocaleString()} of ${total.toLocaleString()}`
                    : ''
              }${this.loading && r ? html` · <span class="hint">${this.pending ?? 'Loading…'}</span>` : nothing}</span>
              ${
                last > 1 && !this.error
                  ? html`<button type="button" class="button" id="previous" ?disabled=${this.loading || this.page <= 1} @click=${() => this.load(this.page - 1, `Loading page ${this.page - 1}…`)}>Previous</button>
                      <button type="button" class="button" id="next" ?disabled=${this.loading || this.page >= last} @click=${() => this.load(this.page + 1, `Loading page ${this.page + 1}…`)}>Next</button>`
                  : nothing
              }
              ${
                canDownload
                  ? html`<button type="button" class="button primary" id="download" ?disabled=${!total || this.downloading} @click=${() => this.download()}>
                      ${this.downloading ? html`<span class="spinner"></span>` : downloadIcon}<span>Download CSV</span>
                    </button>`
                  : nothing
              }
            </div>`
          : nothing
      }
    </dialog>`
  }

  private renderBody(): TemplateResult {
    const e = this.error
    if (e) {
      const sql = e.status === 400 && /SQL metric/i.test(e.message)
      return html`<div class="state" role="alert">
        <strong>${sql ? 'This metric has no rows to show' : 'The rows could not be loaded'}</strong>
        ${
          sql
            ? 'It is computed by a query written in SQL, so there is no single table to list rows from.'
            : e.status === 403
              ? 'Your access does not include the rows behind this metric. Ask whoever gave you access to this dashboard.'
              : html`Check your connection, then try again.<br /><button type="button" class="button" @click=${() => this.load(this.page)}>Try again</button>`
        }
      </div>`
    }
    const r = this.result
    if (!r) return html`<div class="state"><span class="spinner"></span></div>`
    if (r.totalRecords === 0 || r.data.length === 0) {
      return html`<div class="state"><strong>No rows match</strong>The filters in effect leave no rows behind this metric. Clear or widen a filter to see some.</div>`
    }
    const columns = columnsOf(r)
    // quantities right-aligned and grouped; identifiers, codes and years as written (column-formats)
    const numeric = new Set(
      r.metaData.columns
        .filter(
          (c) =>
            (c.dataType === 'number' || c.dataType === 'integer') && !asWritten(inferColumnFormat(c.name, c.dataType)),
        )
        .map((c) => c.name),
    )
    const s = this.sort
    const rows = r.data
    return html`<table>
      <thead>
        <tr>
          ${columns.map(
            (c) => html`<th scope="col" aria-sort=${s?.column === c ? s.direction : 'none'}>
              <button type="button" data-column=${c} @click=${() => this.toggleSort(c)}>
                ${c}<span class="arrow" aria-hidden="true">${s?.column === c ? (s.direction === 'ascending' ? '▲' : '▼') : ''}</span>
              </button>
            </th>`,
          )}
        </tr>
      </thead>
      <tbody>
        ${rows.map((row) => html`<tr>${columns.map((c) => html`<td class=${numeric.has(c) ? 'num' : ''}>${numeric.has(c) ? quantity(row[c], this.session?.host.locale()) : cell(row[c])}</td>`)}</tr>`)}
      </tbody>
    </table>`
  }
}

function columnsOf(r: QueryResult): string[] {
  const named = r.metaData.columns.map((c) => c.name)
  return named.length ? named : Object.keys(r.data[0] ?? {})
}

/** A number of a quantity column, grouped by the viewer's locale (the CSV keeps it raw). */
function quantity(v: unknown, locale: string | undefined): string {
  const n = toNumber(v)
  return n === null ? cell(v) : formatNumber(n, { locale })
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return '—'
  return typeof v === 'object' ? JSON.stringify(v) : String(v)
}
