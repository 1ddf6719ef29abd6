import { css } from 'lit'

/**
 * The metric builder: a modal dialog over the dashboard with three columns (fields, the
 * query, the preview) that stack under 760px. Colours and radius come from the dashboard's
 * private properties (`--_*`), which the dialog inherits; its surface is common.styles.ts's.
 */
export const builderStyles = css`
  dialog {
    width: min(1240px, calc(100vw - 32px));
    height: min(860px, calc(100dvh - 32px));
    max-width: none;
    max-height: none;
    padding: 0;
    overflow: hidden;
  }
  dialog[open] {
    display: flex;
    flex-direction: column;
  }
  .bd-body {
    flex: 1;
    min-height: 0;
    display: grid;
    grid-template-columns: 250px minmax(300px, 370px) minmax(0, 1fr);
  }
  .bd-col {
    min-height: 0;
    overflow: auto;
    padding: 16px;
    display: flex;
    flex-direction: column;
    gap: 14px;
  }
  .bd-fields {
    background: var(--_bg, #f6f7f9);
    border-right: 1px solid var(--_border);
  }
  .bd-query {
    border-right: 1px solid var(--_border);
  }
  .bd-label,
  .bd-section-title,
  legend {
    display: block;
    margin: 0 0 6px;
    padding: 0;
    font-size: 11px;
    font-weight: 650;
    letter-spacing: 0.06em;
    text-transform: uppercase;
    color: var(--_muted);
  }
  .bd-control {
    width: 100%;
    height: 34px;
    padding: 0 10px;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.7);
    background: var(--_surface);
  }
  select.bd-control {
    padding-right: 4px;
  }
  .bd-control:hover {
    border-color: color-mix(in srgb, var(--_primary) 35%, var(--_border));
  }
  .bd-control[aria-invalid='true'] {
    border-color: var(--_negative);
  }
  .bd-hint {
    margin: 0;
    font-size: 12px;
    color: var(--_muted);
  }

  /* Field list */
  .bd-field-list {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-direction: column;
    gap: 2px;
  }
  .bd-field-list li {
    position: relative;
  }
  .bd-field {
    display: flex;
    align-items: center;
    gap: 8px;
    width: 100%;
    min-height: 34px;
    padding: 6px 8px;
    border: 1px solid transparent;
    border-radius: 7px;
    background: transparent;
    text-align: left;
    cursor: grab;
    /* a finger moving sideways drags the field (field-drag.ts); up or down scrolls the list */
    touch-action: pan-y;
    user-select: none;
    -webkit-user-select: none;
    -webkit-touch-callout: none;
  }
  .bd-field:hover,
  .bd-field[aria-expanded='true'] {
    background: var(--_surface);
    border-color: var(--_border);
  }
  .bd-field:active {
    cursor: grabbing;
  }
  .bd-field-name {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .bd-type {
    flex: none;
    display: inline-grid;
    place-items: center;
    min-width: 24px;
    height: 20px;
    padding: 0 4px;
    border-radius: 5px;
    font-size: 11px;
    font-weight: 650;
    background: color-mix(in srgb, var(--_primary) 10%, transparent);
    color: var(--_primary);
  }
  .bd-type.time {
    background: color-mix(in srgb, #0891b2 12%, transparent);
    color: #0e7490;
  }
  .bd-type.text {
    background: color-mix(in srgb, var(--_muted) 14%, transparent);
    color: var(--_muted);
  }
  .bd-type.boolean {
    background: color-mix(in srgb, #d97706 14%, transparent);
    color: #b45309;
  }
  .bd-field-type {
    flex: none;
    font-size: 11px;
    color: var(--_muted);
  }
  .bd-menu {
    position: absolute;
    z-index: 5;
    top: calc(100% + 2px);
    left: 8px;
    right: 8px;
    padding: 4px;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: 8px;
    box-shadow: 0 12px 24px -6px rgb(16 24 40 / 0.18);
  }
  .bd-menu button,
  .menu-item {
    display: flex;
    align-items: center;
    gap: 8px;
    width: 100%;
    padding: 7px 10px;
    border: 0;
    border-radius: 6px;
    background: transparent;
    text-align: left;
    cursor: pointer;
  }
  .bd-menu button:hover,
  .bd-menu button:focus-visible {
    background: color-mix(in srgb, var(--_primary) 9%, transparent);
    color: var(--_primary);
    outline: none;
  }

  /* The field being dragged, at the pointer (field-drag.ts moves it) */
  .bd-ghost {
    position: fixed;
    z-index: 10;
    left: 0;
    top: 0;
    margin: -16px 0 0 12px;
    max-width: 220px;
    padding: 5px 10px;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    border: 1px solid var(--_primary);
    border-radius: 999px;
    background: var(--_surface);
    color: var(--_primary);
    font-size: 13px;
    font-weight: 550;
    box-shadow: 0 8px 16px -6px rgb(16 24 40 / 0.25);
    pointer-events: none;
  }

  /* Query zones */
  .bd-zone {
    margin: 0;
    padding: 10px;
    border: 1px dashed color-mix(in srgb, var(--_muted) 35%, transparent);
    border-radius: var(--_radius);
    transition:
      border-color 0.12s,
      background 0.12s;
  }
  .bd-zone.over {
    border-color: var(--_primary);
    border-style: solid;
    background: color-mix(in srgb, var(--_primary) 6%, transparent);
  }
  .bd-zone .bd-section-title {
    display: flex;
    align-items: center;
    justify-content: space-between;
  }
  .bd-items {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-direction: column;
    gap: 6px;
  }
  .bd-item {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto auto;
    align-items: center;
    gap: 6px;
    padding: 6px 6px 6px 10px;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: 8px;
    box-shadow: 0 1px 1px rgb(16 24 40 / 0.04);
  }
  .bd-item.filter {
    grid-template-columns: minmax(0, 1fr) auto;
  }
  .bd-item-name {
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-weight: 550;
  }
  .bd-item select,
  .bd-item input {
    height: 28px;
    padding: 0 6px;
    border: 1px solid var(--_border);
    border-radius: 6px;
    background: var(--_surface);
    font-size: 13px;
    min-width: 0;
  }
  .bd-filter-row {
    grid-column: 1 / -1;
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
  }
  .bd-filter-row select {
    flex: 0 1 auto;
  }
  .bd-filter-row > input {
    flex: 1 1 90px;
  }
  /* a text filter's value picker (value-picker.ts): the dashboard's dropdown, as wide as the row lets it */
  .bd-value {
    flex: 1 1 140px;
    min-width: 0;
  }
  .bd-value .dd,
  .bd-value .dd-trigger {
    width: 100%;
  }
  /* the panel hangs from the trigger's right edge (the row's), so it stays inside the column */
  .bd-value .dd-panel.search {
    left: auto;
    right: 0;
    width: max(100%, 240px);
    max-width: none;
  }
  .bd-item-error {
    grid-column: 1 / -1;
    margin: 0;
    font-size: 12px;
    color: var(--_negative);
  }
  .bd-empty-zone {
    margin: 0;
    padding: 6px 2px;
    font-size: 13px;
    color: var(--_muted);
  }
  .bd-row {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    gap: 8px;
    align-items: end;
  }
  .bd-row + .bd-row {
    margin-top: 8px;
  }
  .bd-row.single {
    grid-template-columns: minmax(0, 1fr);
  }

  /* Preview column */
  .bd-charts {
    margin: 0;
    padding: 0;
    border: 0;
  }
  .bd-chart-options {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
  }
  .bd-chart-options label {
    position: relative;
    display: inline-flex;
    align-items: center;
    height: 30px;
    padding: 0 10px;
    border: 1px solid var(--_border);
    border-radius: 999px;
    font-size: 13px;
    cursor: pointer;
    background: var(--_surface);
  }
  .bd-chart-options input {
    position: absolute;
    opacity: 0;
    inset: 0;
    margin: 0;
    cursor: pointer;
  }
  .bd-chart-options label:has(input:checked) {
    border-color: var(--_primary);
    background: color-mix(in srgb, var(--_primary) 10%, transparent);
    color: var(--_primary);
    font-weight: 600;
  }
  .bd-chart-options label.unfit {
    border-style: dashed;
    color: var(--_muted);
    background: transparent;
    cursor: not-allowed;
  }
  .bd-chart-options label.unfit input {
    cursor: not-allowed;
  }
  .bd-chart-why {
    margin-top: 8px;
    font-size: 12px;
    color: var(--_muted);
  }
  .bd-chart-why summary {
    cursor: pointer;
    width: fit-content;
    min-height: 24px;
    line-height: 24px;
  }
  .bd-chart-why summary:focus-visible {
    outline: 2px solid var(--_primary);
    outline-offset: 2px;
    border-radius: 4px;
  }
  .bd-chart-why ul {
    margin: 4px 0 0;
    padding-left: 18px;
  }
  .bd-chart-options label:has(input:focus-visible) {
    outline: 2px solid var(--_primary);
    outline-offset: 2px;
  }
  .bd-preview {
    flex: 1 0 300px;
    display: flex;
    flex-direction: column;
    min-height: 300px;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: var(--_shadow);
    overflow: hidden;
  }
  .bd-preview[data-state='loading'] .stale {
    opacity: 0.55;
  }
  .bd-guide {
    flex: 1;
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: 8px;
    padding: 24px;
    text-align: center;
    color: var(--_muted);
  }
  .bd-guide svg {
    width: 32px;
    height: 32px;
    opacity: 0.6;
  }
  .bd-guide strong {
    color: var(--_text);
    font-weight: 600;
  }
  .bd-visibility {
    margin: 0;
    padding: 0;
    border: 0;
    display: flex;
    flex-wrap: wrap;
    gap: 4px 16px;
  }
  .bd-visibility legend {
    width: 100%;
  }
  .bd-visibility label {
    display: inline-flex;
    align-items: center;
    gap: 6px;
  }

  /* Footer */
  .dialog-foot .bd-status {
    flex: 1;
    margin: 0;
    min-width: 0;
    font-size: 13px;
  }
  .bd-status.error {
    color: var(--_negative);
  }
  /* Narrow: one column, the whole dialog scrolls */
  @media (max-width: 759px) {
    dialog {
      width: 100vw;
      height: 100dvh;
      border-radius: 0;
      border: 0;
    }
    .bd-body {
      display: block;
      overflow: auto;
    }
    .bd-col {
      overflow: visible;
      border: 0;
    }
    .bd-fields {
      border-bottom: 1px solid var(--_border);
    }
    /* the fields as wrapping chips: the query and the preview come sooner */
    .bd-field-list {
      flex-direction: row;
      flex-wrap: wrap;
      gap: 6px;
    }
    .bd-field {
      width: auto;
      min-height: 32px;
      padding: 4px 10px 4px 4px;
      background: var(--_surface);
      border-color: var(--_border);
      border-radius: 999px;
    }
    .bd-field-type {
      display: none;
    }
    .bd-menu {
      left: 0;
      right: auto;
      min-width: 200px;
    }
    .bd-preview {
      flex-basis: 280px;
    }
    .dialog-foot .bd-status:empty {
      display: none;
    }
    .dialog-foot .button {
      flex: 1;
    }
  }
`
