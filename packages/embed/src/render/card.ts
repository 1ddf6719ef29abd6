import type { GridItem } from '@strata/contract/grid'
import { html, nothing, type TemplateResult } from 'lit'
import { PAGE_SIZE } from '../api/types.js'
import type { DataTable, Visual } from '../charts/build.js'
import { echart, type PickHandler } from '../charts/echarts.js'
import type { MetricState } from '../embed-controller.js'
import { formatNumber } from '../lib/numbers.js'
import { alertIcon, downloadIcon, emptyIcon, nextIcon, prevIcon } from './icons.js'
import { shapedRender } from './shaped-slot.js'
import { renderErrorCode } from './states.js'

export interface CardHost {
  readonly locale: string | undefined
  /** The token expired: a card waiting for data shows `data-state="expired"`. */
  readonly expired: boolean
  readonly canDownload: boolean
  visualOf(m: MetricState): Visual | undefined
  download(metricId: string): void
  setPage(metricId: string, page: number): void
  retry(metricId: string): void
  /** The card's self-serve menu (edit, archive, …), when the self-serve module is loaded. */
  menu?(m: MetricState): TemplateResult | typeof nothing
  /** A note under the card's header (the company updated this metric), when the self-serve module is loaded. */
  note?(m: MetricState): TemplateResult | typeof nothing
  /** A line under the card's body (the AI summary), when the self-serve module is loaded. */
  below?(m: MetricState): TemplateResult | typeof nothing
  /** Edit-layout mode (the self-serve module): handles over each card, arrow keys on it. */
  readonly edit?: CardEdit | undefined
  /** The labels of the active dashboard filters this metric does not take (the load's `unfiltered`). */
  unfilteredBy?(m: MetricState): readonly string[]
  /** Drill-down (docs/web-component.md#drill-down), when the card's metric offers it. */
  readonly drill?: CardDrill | undefined
}

/** What a card's data points and rows do when drill-down is on (the drill module does the rest). */
export interface CardDrill {
  /** Whether this card's points and rows open the drill menu. */
  on(m: MetricState): boolean
  /** A click or tap on a chart's point. */
  chart(m: MetricState): PickHandler
  /** Keys on a focused chart (arrows move between points, Enter opens the menu). */
  chartKey(m: MetricState, e: KeyboardEvent, el: HTMLElement): void
  /** A click on a table's row (`column`: the cell's column), or Enter on it. */
  row(m: MetricState, index: number, column: string | undefined, e: Event, el: HTMLElement): void
  /** Escape or Backspace on the card: one level up its time series. */
  cardKey(m: MetricState, e: KeyboardEvent): void
  /** The card's breadcrumbs, while its time series is drilled. */
  trail(m: MetricState): TemplateResult | typeof nothing
}

export interface CardEdit {
  /** The move surface and resize corner drawn over the card. */
  overlay(metricId: string, name: string): TemplateResult
  /** Arrow keys (move) and Shift+arrow keys (resize) on a focused card. */
  keydown(e: KeyboardEvent): void
  /** The card being dragged (it floats over the grid). */
  isDragging(metricId: string): boolean
  /** The id of the element that tells how to move a card with the keyboard. */
  readonly helpId: string
}

const LEGEND_MAX = 12

/** One metric: a card with its title, actions, and a chart, table or number (or a state). */
export function renderCard(host: CardHost, m: MetricState, place: GridItem | undefined, index: number): TemplateResult {
  const { metric } = m
  const titleId = `metric-title-${index}`
  const visual = m.status === 'error' ? undefined : host.visualOf(m)
  const style = place ? `--x:${place.x + 1};--y:${place.y + 1};--w:${place.w};--h:${place.h}` : ''
  const refreshing = m.status === 'loading' && visual !== undefined
  const edit = host.edit
  return html`<section
    class="card ${edit ? 'editing' : ''} ${edit?.isDragging(metric.metricId) ? 'dragging' : ''}"
    part="card"
    data-metric-id=${metric.metricId}
    data-state=${host.expired && m.status === 'loading' ? 'expired' : m.status}
    data-chart-type=${metric.chart.type}
    style=${style}
    aria-labelledby=${titleId}
    aria-describedby=${edit ? edit.helpId : nothing}
    aria-busy=${m.status === 'loading' ? 'true' : 'false'}
    tabindex=${edit ? '0' : '-1'}
    @keydown=${edit?.keydown ?? (host.drill ? (e: KeyboardEvent) => host.drill?.cardKey(m, e) : undefined)}
  >
    <header class="card-header" part="card-header">
      <h3 class="card-title" part="card-title" id=${titleId} title=${metric.name}>${metric.name}</h3>
      ${refreshing ? html`<span class="spinner" role="status" aria-label="Updating"></span>` : nothing}
      ${
        host.canDownload
          ? html`<button
              type="button"
              class="icon-button"
              part="download-button"
              aria-label="Download ${metric.name} as CSV"
              title="Download CSV"
              ?disabled=${m.downloading || m.status === 'error'}
              @click=${() => host.download(metric.metricId)}
            >
              ${m.downloading ? html`<span class="spinner"></span>` : downloadIcon}
            </button>`
          : nothing
      }
      ${host.menu && !edit ? host.menu(m) : nothing}
    </header>
    ${unfilteredNote(host.unfilteredBy?.(m) ?? [])}
    ${host.note && !edit ? host.note(m) : nothing}
    ${host.drill && !edit ? host.drill.trail(m) : nothing}
    <div class="card-body" part="card-body">${renderMetricBody(host, m, visual)}</div>
    ${host.below && !edit ? host.below(m) : nothing}
    ${edit ? edit.overlay(metric.metricId, metric.name) : nothing}
  </section>`
}

/** "Not filtered by Country": active filters the metric does not take, so its numbers are not read as filtered. */
function unfilteredNote(labels: readonly string[]): TemplateResult | typeof nothing {
  if (labels.length === 0) return nothing
  const list = labels.join(', ')
  const why = `This card ignores the ${list} filter${labels.length > 1 ? 's' : ''}: its numbers include every value.`
  return html`<p class="unfiltered" part="unfiltered-note" role="note" title=${why} aria-label=${why}>
    Not filtered by ${list}
  </p>`
}

/** What a card shows under its header: the chart, table or number, or its loading or error state (the builder's preview too). */
export function renderMetricBody(host: CardHost, m: MetricState, visual: Visual | undefined): TemplateResult {
  if (m.status === 'error' && m.error) {
    // the server's message is the developer's (strata-error, the console): the end user reads a sentence
    return html`<div class="error" part="error" role="alert">
      ${alertIcon}
      <p class="error-message" part="error-message">This chart couldn't load its data.</p>
      ${renderErrorCode(m.error)}
      <button type="button" class="button" part="retry-button" @click=${() => host.retry(m.metric.metricId)}>
        Try again
      </button>
    </div>`
  }
  if (!visual) {
    return html`<div class="skeleton ${m.metric.chart.type}" part="skeleton" aria-hidden="true"></div>
      <span class="sr-only" role="status">Loading ${m.metric.name}</span>`
  }
  const rows = m.result?.data.length ?? 0
  return html`<div class="stale">${renderVisual(host, m, visual)}</div>
    ${
      m.result?.truncated
        ? html`<p class="truncated" part="truncated-note" role="note">
          Showing the first ${formatNumber(rows, { locale: host.locale })} rows: the result is larger than the
          server returns at once.
        </p>`
        : nothing
    }`
}

function renderVisual(host: CardHost, m: MetricState, visual: Visual): TemplateResult {
  switch (visual.kind) {
    case 'empty':
      return html`<div class="empty" part="empty">${emptyIcon}<span>No data</span></div>`
    case 'single-value':
      return html`<div class="single-value" part="chart" role="img" aria-label=${visual.summary}>
        <div class="sv-value" part="value" aria-hidden="true" title=${visual.fullText}
          style="--sv-chars:${Math.max(4, visual.text.length)}">${visual.text}</div>
        ${
          visual.changeText
            ? html`<div class="sv-change ${visual.tone}" part="change" aria-hidden="true">
              <span class="pill">${visual.changeText}</span
              ><span class="sv-vs"><span class="long">vs ${visual.lastYear ? 'a year before' : 'previous period'}</span><span class="short">vs ${visual.lastYear ? 'last year' : 'prev. period'}</span></span>
            </div>`
            : nothing
        }
      </div>`
    case 'table':
      return renderTable(host, m, visual)
    case 'pivot':
    case 'trend': {
      // built only once their module is loaded, which registers this too
      const render = shapedRender()
      return render
        ? render(visual, m.metric.name)
        : html`<div class="skeleton" part="skeleton" aria-hidden="true"></div>`
    }
    case 'echarts': {
      const drill = host.drill?.on(m) && !host.edit ? host.drill : undefined
      const chart = drill
        ? html`<div
            class="chart drillable"
            part="chart"
            role="group"
            aria-roledescription="chart"
            aria-label=${visual.summary}
            aria-description="Arrow keys move between points; Enter opens a point's options."
            tabindex="0"
            @keydown=${(e: KeyboardEvent) => drill.chartKey(m, e, e.currentTarget as HTMLElement)}
            ${echart(visual.option, drill.chart(m))}
          ></div>`
        : html`<div class="chart" part="chart" role="img" aria-label=${visual.summary} ${echart(visual.option)}></div>`
      return html`${chart}
        ${
          visual.legend.length
            ? html`<ul class="legend" part="legend" aria-hidden="true">
              ${visual.legend
                .slice(0, LEGEND_MAX)
                .map((l) => html`<li><span class="swatch" style="background:${l.color}"></span>${l.name}</li>`)}
              ${visual.legend.length > LEGEND_MAX ? html`<li>+${visual.legend.length - LEGEND_MAX} more</li>` : nothing}
            </ul>`
            : nothing
        }
        ${hiddenTable(m.metric.name, visual.table)}`
    }
  }
}

/** The chart's data for screen readers. */
function hiddenTable(name: string, t: DataTable): TemplateResult {
  return html`<table class="sr-only">
    <caption>
      ${name}: data${t.more ? ` (first ${t.rows.length} rows of ${t.rows.length + t.more})` : ''}
    </caption>
    <thead>
      <tr>
        ${t.columns.map((c) => html`<th scope="col">${c}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${t.rows.map((r) => html`<tr>${r.map((c) => html`<td>${c}</td>`)}</tr>`)}
    </tbody>
  </table>`
}

function renderTable(host: CardHost, m: MetricState, v: Extract<Visual, { kind: 'table' }>): TemplateResult {
  const n = (x: number) => formatNumber(x, { locale: host.locale })
  const first = (v.page - 1) * PAGE_SIZE + 1
  const last = first + v.rows.length - 1
  const name = m.metric.name
  return html`<div class="table-wrap" part="chart" role="region" aria-label=${v.summary} tabindex="0">
      <table class="data" part="table">
        <caption class="sr-only">
          ${name}
        </caption>
        <thead>
          <tr>
            ${v.columns.map((c) => html`<th scope="col" class=${c.numeric ? 'num' : ''} title=${c.name}>${c.label}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${v.rows.map((row, r) => {
            const drill = host.drill?.on(m) && !host.edit ? host.drill : undefined
            if (!drill) {
              return html`<tr>
                ${row.map((cell, i) => html`<td class=${v.columns[i]?.numeric ? 'num' : ''}>${cell}</td>`)}
              </tr>`
            }
            const pick = (e: Event, column?: string) => drill.row(m, r, column, e, e.currentTarget as HTMLElement)
            return html`<tr
              class="drillable"
              tabindex="0"
              @keydown=${(e: KeyboardEvent) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault()
                  pick(e)
                }
              }}
            >
              ${row.map(
                (cell, i) =>
                  html`<td class=${v.columns[i]?.numeric ? 'num' : ''} @click=${(e: Event) => {
                    e.stopPropagation()
                    drill.row(
                      m,
                      r,
                      v.columns[i]?.name,
                      e,
                      (e.currentTarget as HTMLElement).parentElement as HTMLElement,
                    )
                  }}>${cell}</td>`,
              )}
            </tr>`
          })}
        </tbody>
      </table>
    </div>
    ${
      v.pageCount > 1 || v.totalRecords > v.rows.length
        ? html`<nav class="pagination" part="pagination" aria-label="Pages of ${name}">
          <span aria-live="polite">${n(first)}–${n(last)} of ${n(v.totalRecords)}</span>
          <button
            type="button"
            class="icon-button"
            part="page-previous"
            aria-label="Previous page"
            ?disabled=${v.page <= 1 || m.status === 'loading'}
            @click=${() => host.setPage(m.metric.metricId, v.page - 1)}
          >
            ${prevIcon}
          </button>
          <span>Page ${n(v.page)} of ${n(v.pageCount)}</span>
          <button
            type="button"
            class="icon-button"
            part="page-next"
            aria-label="Next page"
            ?disabled=${v.page >= v.pageCount || m.status === 'loading'}
            @click=${() => host.setPage(m.metric.metricId, v.page + 1)}
          >
            ${nextIcon}
          </button>
        </nav>`
        : nothing
    }`
}
