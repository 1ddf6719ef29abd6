import { html, nothing, type TemplateResult } from 'lit'
import type { ShapedVisual } from './shaped-slot.js'

type Pivot = Extract<ShapedVisual, { kind: 'pivot' }>
type Trend = Extract<ShapedVisual, { kind: 'trend' }>

export function renderShaped(visual: ShapedVisual, name: string): TemplateResult {
  return visual.kind === 'pivot' ? renderPivot(visual, name) : renderTrend(visual)
}

// The rules beyond the data table's (styles/charts.ts), here so the entry does not carry them.
const pivotStyle = html`<style>
  table.pivot thead {
    position: sticky;
    top: 0;
    z-index: 2;
  }
  table.pivot thead th {
    position: static;
    text-align: right;
  }
  table.pivot thead th.row-head {
    text-align: left;
    vertical-align: bottom;
  }
  table.pivot thead th:first-child {
    position: sticky;
    left: 0;
    z-index: 3;
  }
  table.pivot tbody th,
  table.pivot tfoot th {
    position: sticky;
    left: 0;
    z-index: 1;
    background: var(--_surface);
    color: var(--_text);
    font-size: 13px;
    font-weight: 500;
    text-align: left;
    box-shadow: inset -1px 0 0 var(--_border);
  }
  table.pivot tbody th:not(:first-child) {
    position: static;
    box-shadow: none;
  }
  table.pivot .total {
    font-weight: 600;
    background: color-mix(in srgb, var(--_border) 18%, var(--_surface));
  }
  table.pivot tfoot th,
  table.pivot tfoot td {
    position: sticky;
    bottom: 0;
    font-weight: 600;
    background: color-mix(in srgb, var(--_border) 30%, var(--_surface));
    border-top: 1px solid var(--_border);
    border-bottom: 0;
  }
  table.pivot tfoot th {
    z-index: 2;
  }
  .pivot-note {
    margin: 6px 0 0;
    font-size: 12px;
    color: var(--_muted);
  }
</style>`

function renderPivot(v: Pivot, name: string): TemplateResult {
  const m = v.measures.length
  const multi = m > 1
  const totals = v.totals.grand.length > 0
  const depth = multi ? 2 : 1
  return html`${pivotStyle}<div class="table-wrap pivot-wrap" part="chart" role="region" aria-label=${v.summary} tabindex="0">
      <table class="data pivot" part="table">
        <caption class="sr-only">${name}: ${v.rowHeaders.join(', ')} by ${v.columnHeader}</caption>
        <thead>
          <tr>
            ${v.rowHeaders.map((h) => html`<th scope="col" class="row-head" rowspan=${depth}>${h}</th>`)}
            ${v.columnKeys.map((k) => html`<th scope=${multi ? 'colgroup' : 'col'} colspan=${m} title="${v.columnHeader}: ${k}">${k}</th>`)}
            ${totals ? html`<th scope=${multi ? 'colgroup' : 'col'} colspan=${m} class="total">Total</th>` : nothing}
          </tr>
          ${
            multi
              ? html`<tr>
                ${[...v.columnKeys, ...(totals ? ['Total'] : [])].flatMap((_, i) =>
                  v.measures.map(
                    (h) => html`<th scope="col" class=${i === v.columnKeys.length ? 'total' : ''}>${h}</th>`,
                  ),
                )}
              </tr>`
              : nothing
          }
        </thead>
        <tbody>
          ${v.rows.map(
            (r) => html`<tr>
              ${r.labels.map((l) => html`<th scope="row">${l}</th>`)}
              ${r.cells.map((c) => html`<td class="num">${c}</td>`)}
              ${r.totals.map((c) => html`<td class="num total">${c}</td>`)}
            </tr>`,
          )}
        </tbody>
        ${
          totals
            ? html`<tfoot>
              <tr>
                <th scope="row" colspan=${v.rowHeaders.length}>Total</th>
                ${v.totals.cells.map((c) => html`<td class="num">${c}</td>`)}
                ${v.totals.grand.map((c) => html`<td class="num total">${c}</td>`)}
              </tr>
            </tfoot>`
            : nothing
        }
      </table>
    </div>
    ${
      v.clipped.rows || v.clipped.columns
        ? html`<p class="pivot-note" part="truncated-note" role="note">
          Not shown: ${v.clipped.rows ? `${v.clipped.rows} more rows` : ''}${v.clipped.rows && v.clipped.columns ? ' and ' : ''}${v.clipped.columns ? `${v.clipped.columns} more columns` : ''}.
        </p>`
        : nothing
    }`
}

const trendStyle = html`<style>
  .trend .spark {
    display: block;
    width: 100%;
    height: 40px;
    flex: none;
    overflow: visible;
  }
  .trend .spark .line {
    fill: none;
    stroke: var(--_primary);
    stroke-width: 2;
    stroke-linejoin: round;
    vector-effect: non-scaling-stroke;
  }
  .trend .spark .area {
    fill: color-mix(in srgb, var(--_primary) 12%, transparent);
  }
</style>`

/** The sparkline's path in a 100 × 40 box (y down), with a margin so the stroke is never cut. */
export function sparkPath(points: Trend['spark']): { line: string; area: string } {
  if (points.length === 0) return { line: '', area: '' }
  const at = points.map((p) => `${(p.x * 100).toFixed(2)} ${(36 - p.y * 32).toFixed(2)}`)
  const line = `M${at.join('L')}`
  const first = points[0]!
  const last = points[points.length - 1]!
  return { line, area: `${line}L${(last.x * 100).toFixed(2)} 40L${(first.x * 100).toFixed(2)} 40Z` }
}

function renderTrend(v: Trend): TemplateResult {
  const path = sparkPath(v.spark)
  return html`${trendStyle}<div class="single-value trend" part="chart" role="img" aria-label=${v.summary}>
    <div class="sv-value" part="value" aria-hidden="true" title=${v.fullText} style="--sv-chars:${Math.max(4, v.text.length)}">
      ${v.text}
    </div>
    ${
      v.changeText
        ? html`<div class="sv-change ${v.tone}" part="change" aria-hidden="true">
          <span class="pill">${v.changeText}</span><span class="sv-vs">${v.versus}</span>
        </div>`
        : nothing
    }
    ${
      v.spark.length > 1
        ? html`<svg class="spark" part="sparkline" viewBox="0 0 100 40" preserveAspectRatio="none" aria-hidden="true">
          <path class="area" d=${path.area}></path><path class="line" d=${path.line}></path>
        </svg>`
        : nothing
    }
  </div>`
}
