import { css } from 'lit'

/** What a card draws: ECharts canvas with HTML legend and tooltip, single values, tables. */
export const charts = css`
  /* Charts */
  .chart {
    position: relative;
    flex: 1;
    min-height: 120px;
  }
  /* Drill-down: a chart that takes focus (arrow keys between points) and rows that open the menu */
  .chart.drillable:focus-visible,
  tr.drillable:focus-visible {
    outline: 2px solid var(--_primary);
    outline-offset: 2px;
  }
  tr.drillable {
    cursor: pointer;
  }
  tr.drillable:hover td {
    background: color-mix(in srgb, var(--_primary) 6%, transparent);
  }
  .legend {
    display: flex;
    flex-wrap: wrap;
    gap: 4px 14px;
    margin: 8px 0 0;
    padding: 0;
    list-style: none;
    font-size: 12px;
    color: var(--_muted);
  }
  .legend li {
    display: inline-flex;
    align-items: center;
    gap: 6px;
  }
  .swatch {
    flex: none;
    display: inline-block;
    width: 10px;
    height: 10px;
    border-radius: 3px;
  }
  .tooltip {
    position: absolute;
    top: 0;
    left: 0;
    z-index: 5;
    min-width: 120px;
    max-width: 260px;
    padding: 8px 10px;
    background: var(--_surface);
    color: var(--_text);
    border: 1px solid var(--_border);
    border-radius: 8px;
    box-shadow: 0 8px 16px rgb(16 24 40 / 0.12);
    font-size: 12px;
    pointer-events: none;
    transition: transform 0.08s ease-out;
  }
  .tooltip[hidden] {
    display: none;
  }
  .tooltip-title {
    margin-bottom: 4px;
    font-weight: 600;
  }
  .tooltip-row {
    display: flex;
    align-items: center;
    gap: 6px;
  }
  .tooltip-name {
    flex: 1;
    color: var(--_muted);
  }
  .tooltip-value {
    font-variant-numeric: tabular-nums;
    font-weight: 600;
  }

  /* Single value */
  .single-value {
    flex: 1;
    display: flex;
    flex-direction: column;
    justify-content: center;
    gap: 6px;
    min-height: 0;
    min-width: 0;
    /* The value's font follows the card's width, not the dashboard's. */
    container-type: inline-size;
  }
  .sv-value {
    /* as large as the card allows, and small enough that the whole value fits (≈0.62em a character) */
    font-size: clamp(14px, min(16cqi, 100cqi / (var(--sv-chars) * 0.62)), 44px);
    font-weight: 700;
    letter-spacing: -0.02em;
    line-height: 1.1;
    font-variant-numeric: tabular-nums;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .sv-change {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 4px 6px;
    font-size: 13px;
    font-weight: 600;
  }
  .sv-change .pill {
    padding: 2px 8px;
    border-radius: 999px;
    font-variant-numeric: tabular-nums;
    white-space: nowrap;
  }
  .sv-change.good .pill {
    color: var(--_positive);
    background: color-mix(in srgb, var(--_positive) 12%, transparent);
  }
  .sv-change.bad .pill {
    color: var(--_negative);
    background: color-mix(in srgb, var(--_negative) 12%, transparent);
  }
  .sv-change.neutral .pill {
    color: var(--_muted);
    background: color-mix(in srgb, var(--_muted) 12%, transparent);
  }
  .sv-vs {
    color: var(--_muted);
    font-weight: 400;
    white-space: nowrap;
  }
  .sv-vs .short {
    display: none;
  }
  /* a narrow card (four across a dashboard column): the short form, under the pill if need be */
  @container (max-width: 190px) {
    .sv-vs {
      font-size: 12px;
    }
    .sv-vs .long {
      display: none;
    }
    .sv-vs .short {
      display: inline;
    }
  }

  /* Table: scrolls inside its card both ways (never the page), header row and first column stay */
  .table-wrap {
    flex: 1;
    min-height: 0;
    min-width: 0;
    overflow: auto;
    overscroll-behavior-x: contain;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.7);
    /* a shade at the right edge while more columns lie beyond it (covered once scrolled to the end) */
    background:
      linear-gradient(to right, transparent, var(--_surface) 60%) right / 32px 100% no-repeat local,
      radial-gradient(farthest-side at 100% 50%, rgb(16 24 40 / 0.2), transparent) right / 14px 100% no-repeat scroll;
  }
  table.data {
    width: 100%;
    border-collapse: separate;
    border-spacing: 0;
    font-size: 13px;
    font-variant-numeric: tabular-nums;
  }
  table.data th,
  table.data td {
    padding: 7px 12px;
    text-align: left;
    white-space: nowrap;
    border-bottom: 1px solid var(--_border);
  }
  table.data th:first-child,
  table.data td:first-child {
    position: sticky;
    left: 0;
    z-index: 1;
    background: var(--_surface);
    box-shadow: inset -1px 0 0 var(--_border);
  }
  table.data th {
    position: sticky;
    top: 0;
    z-index: 2;
    background: color-mix(in srgb, var(--_border) 30%, var(--_surface));
    color: var(--_muted);
    font-size: 12px;
    font-weight: 600;
  }
  table.data th:first-child {
    z-index: 3;
    background: color-mix(in srgb, var(--_border) 30%, var(--_surface));
  }
  table.data tbody tr:last-child td {
    border-bottom: 0;
  }
  table.data tbody tr:hover td {
    background: color-mix(in srgb, var(--_primary) 4%, var(--_surface));
  }
  table.data .num {
    text-align: right;
  }
  .pagination {
    display: flex;
    align-items: center;
    justify-content: flex-end;
    gap: 8px;
    padding-top: 8px;
    font-size: 12px;
    color: var(--_muted);
  }
  .pagination .icon-button {
    border-color: var(--_border);
  }
`
