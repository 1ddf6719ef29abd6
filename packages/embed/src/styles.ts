import { css } from 'lit'

/**
 * Public custom properties (`--strata-*`) feed private ones (`--_*`) on `.root`, the element
 * that also receives the `theme` attribute's values inline, so the attribute wins over the
 * page's CSS, which wins over the defaults here.
 */
export const styles = css`
  :host {
    display: block;
    box-sizing: border-box;
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }

  .root {
    --_bg: var(--strata-color-background, #f6f7f9);
    --_surface: var(--strata-color-surface, #ffffff);
    --_text: var(--strata-color-text, #111827);
    --_muted: var(--strata-color-muted, #6b7280);
    --_primary: var(--strata-color-primary, #4f46e5);
    --_border: var(--strata-color-border, #e5e7eb);
    --_positive: var(--strata-color-positive, #059669);
    --_negative: var(--strata-color-negative, #dc2626);
    --_radius: var(--strata-radius, 10px);
    --_gap: var(--strata-gap, 16px);
    --_row: var(--strata-row-height, 80px);
    --_shadow: var(--strata-shadow, 0 1px 2px rgb(16 24 40 / 0.04), 0 1px 3px rgb(16 24 40 / 0.08));
    --_font: var(
      --strata-font,
      Inter,
      ui-sans-serif,
      system-ui,
      -apple-system,
      'Segoe UI',
      Roboto,
      'Helvetica Neue',
      Arial,
      sans-serif
    );
    container-type: inline-size;
    position: relative;
    display: flex;
    flex-direction: column;
    gap: var(--_gap);
    padding: var(--_gap);
    background: var(--_bg);
    color: var(--_text);
    font-family: var(--_font);
    font-size: 14px;
    line-height: 1.45;
    border-radius: var(--_radius);
    overflow: auto;
    -webkit-font-smoothing: antialiased;
  }
  .root.single {
    height: var(--strata-metric-height, 360px);
    padding: 0;
    background: transparent;
  }

  .sr-only {
    position: absolute !important;
    width: 1px;
    height: 1px;
    padding: 0;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }

  svg {
    flex: none;
    width: 16px;
    height: 16px;
  }
  button,
  input,
  select {
    font: inherit;
    color: inherit;
  }
  :focus-visible {
    outline: 2px solid var(--_primary);
    outline-offset: 2px;
  }

  /* Header */
  .header {
    display: flex;
    align-items: baseline;
    justify-content: space-between;
    gap: 12px;
  }
  .title {
    margin: 0;
    font-size: 20px;
    font-weight: 650;
    letter-spacing: -0.01em;
  }

  /* Banner (expired token) */
  .banner {
    display: flex;
    align-items: center;
    gap: 8px;
    padding: 10px 14px;
    border: 1px solid color-mix(in srgb, #f59e0b 40%, var(--_border));
    background: color-mix(in srgb, #f59e0b 10%, var(--_surface));
    border-radius: var(--_radius);
    font-size: 13px;
  }

  /* Filters */
  .filters {
    display: flex;
    flex-wrap: wrap;
    align-items: flex-end;
    gap: 12px 16px;
    padding: 14px 16px;
    margin: 0;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: var(--_shadow);
  }
  .field {
    display: flex;
    flex-direction: column;
    gap: 4px;
    min-width: 160px;
    max-width: 100%;
    margin: 0;
    padding: 0;
    border: 0;
    position: relative;
  }
  .field-label {
    display: flex;
    align-items: center;
    gap: 4px;
    padding: 0;
    font-size: 12px;
    font-weight: 550;
    color: var(--_muted);
  }
  .field-label svg {
    width: 12px;
    height: 12px;
  }
  .control {
    height: 34px;
    min-width: 0;
    padding: 0 10px;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.7);
    transition:
      border-color 0.15s,
      box-shadow 0.15s;
  }
  .control:hover:not(:disabled):not([readonly]) {
    border-color: color-mix(in srgb, var(--_primary) 40%, var(--_border));
  }
  .control:focus-visible,
  .control:focus {
    outline: none;
    border-color: var(--_primary);
    box-shadow: 0 0 0 3px color-mix(in srgb, var(--_primary) 20%, transparent);
  }
  .control[readonly],
  .control:disabled {
    background: color-mix(in srgb, var(--_border) 35%, var(--_surface));
    color: var(--_muted);
    cursor: not-allowed;
  }
  select.control {
    padding-right: 28px;
    appearance: none;
    background-image: linear-gradient(45deg, transparent 50%, currentColor 50%),
      linear-gradient(135deg, currentColor 50%, transparent 50%);
    background-position:
      calc(100% - 15px) 15px,
      calc(100% - 10px) 15px;
    background-size: 5px 5px;
    background-repeat: no-repeat;
  }
  .range {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 6px;
  }
  .range input.control {
    width: 110px;
  }
  .range input[type='date'].control {
    width: 150px;
  }
  .range-sep {
    color: var(--_muted);
  }
  .filters-actions {
    margin-left: auto;
  }

  /* Multi-select */
  .ms {
    position: relative;
  }
  .ms > summary {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 8px;
    min-width: 180px;
    max-width: 280px;
    line-height: 32px;
    cursor: pointer;
    list-style: none;
    user-select: none;
  }
  .ms > summary::-webkit-details-marker {
    display: none;
  }
  .ms > summary .value {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .ms > summary .placeholder {
    color: var(--_muted);
  }
  .ms > summary svg {
    flex: none;
    width: 14px;
    height: 14px;
    color: var(--_muted);
    transition: transform 0.15s;
  }
  .ms[open] > summary svg {
    transform: rotate(180deg);
  }
  .ms-panel {
    position: absolute;
    z-index: 20;
    top: calc(100% + 6px);
    left: 0;
    width: max(100%, 260px);
    padding: 8px;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow:
      0 10px 15px -3px rgb(16 24 40 / 0.1),
      0 4px 6px -4px rgb(16 24 40 / 0.1);
  }
  .ms-panel .control {
    width: 100%;
  }
  .ms-options {
    max-height: 240px;
    overflow: auto;
    margin: 6px 0 0;
    padding: 0;
    border: 0;
  }
  .option {
    display: flex;
    align-items: center;
    gap: 8px;
    padding: 6px 8px;
    border-radius: 6px;
    cursor: pointer;
  }
  .option:hover {
    background: color-mix(in srgb, var(--_primary) 8%, transparent);
  }
  .option input {
    accent-color: var(--_primary);
    margin: 0;
  }
  .hint {
    margin: 6px 8px;
    color: var(--_muted);
    font-size: 12px;
  }
  .ms-footer {
    display: flex;
    justify-content: space-between;
    gap: 8px;
    margin-top: 6px;
    padding-top: 6px;
    border-top: 1px solid var(--_border);
  }

  /* Buttons */
  .button,
  .icon-button {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 6px;
    border: 1px solid var(--_border);
    background: var(--_surface);
    color: var(--_text);
    border-radius: calc(var(--_radius) * 0.7);
    cursor: pointer;
    transition:
      background 0.15s,
      border-color 0.15s,
      color 0.15s;
  }
  .button {
    height: 34px;
    padding: 0 12px;
    font-weight: 550;
    font-size: 13px;
  }
  .button.subtle {
    border-color: transparent;
    background: transparent;
    color: var(--_primary);
    height: 28px;
    padding: 0 8px;
  }
  .button:hover:not(:disabled),
  .icon-button:hover:not(:disabled) {
    border-color: color-mix(in srgb, var(--_primary) 40%, var(--_border));
    color: var(--_primary);
  }
  .button:disabled,
  .icon-button:disabled {
    opacity: 0.5;
    cursor: default;
  }
  .icon-button {
    width: 30px;
    height: 30px;
    padding: 0;
    border-color: transparent;
    background: transparent;
    color: var(--_muted);
  }
  .icon-button svg,
  .button svg {
    width: 16px;
    height: 16px;
  }

  /* Body: sidebar + grid */
  .body {
    display: flex;
    gap: var(--_gap);
    align-items: flex-start;
    min-height: 0;
  }
  .sidebar {
    position: sticky;
    top: 0;
    flex: none;
    width: 200px;
    padding: 8px;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: var(--_shadow);
  }
  .sidebar h2 {
    margin: 4px 8px 8px;
    font-size: 11px;
    font-weight: 600;
    letter-spacing: 0.06em;
    text-transform: uppercase;
    color: var(--_muted);
  }
  .sidebar ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .sidebar button {
    display: block;
    width: 100%;
    padding: 7px 8px;
    border: 0;
    background: transparent;
    border-radius: 6px;
    text-align: left;
    cursor: pointer;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .sidebar button:hover {
    background: color-mix(in srgb, var(--_primary) 8%, transparent);
    color: var(--_primary);
  }

  .grid {
    flex: 1;
    min-width: 0;
    display: grid;
    grid-template-columns: repeat(12, minmax(0, 1fr));
    grid-auto-rows: var(--_row);
    gap: var(--_gap);
  }
  .single .grid {
    display: flex;
    height: 100%;
  }

  /* Cards */
  .card {
    grid-column: var(--x) / span var(--w);
    grid-row: var(--y) / span var(--h);
    display: flex;
    flex-direction: column;
    min-width: 0;
    min-height: 0;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: var(--_shadow);
    overflow: hidden;
    scroll-margin: var(--_gap);
    container-type: inline-size;
  }
  .single .card {
    flex: 1;
  }
  .card:focus {
    outline: none;
  }
  .card:focus-visible {
    outline: 2px solid var(--_primary);
  }
  .card-header {
    display: flex;
    align-items: center;
    gap: 8px;
    min-height: 44px;
    padding: 10px 10px 4px 16px;
  }
  .card-title {
    flex: 1;
    margin: 0;
    font-size: 14px;
    font-weight: 600;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .spinner {
    width: 14px;
    height: 14px;
    border: 2px solid color-mix(in srgb, var(--_primary) 25%, transparent);
    border-top-color: var(--_primary);
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  .card-body {
    position: relative;
    flex: 1;
    display: flex;
    flex-direction: column;
    min-height: 0;
    padding: 4px 16px 14px;
  }
  .card[data-state='loading'] .card-body > .stale {
    opacity: 0.55;
    transition: opacity 0.2s;
  }
  .stale {
    flex: 1;
    display: flex;
    flex-direction: column;
    min-height: 0;
  }

  /* Charts */
  .chart {
    position: relative;
    flex: 1;
    min-height: 120px;
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
  }
  .sv-value {
    font-size: clamp(28px, 6cqi, 44px);
    font-weight: 700;
    letter-spacing: -0.02em;
    line-height: 1.1;
    font-variant-numeric: tabular-nums;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .sv-change {
    display: inline-flex;
    align-items: center;
    gap: 6px;
    font-size: 13px;
    font-weight: 600;
  }
  .sv-change .pill {
    padding: 2px 8px;
    border-radius: 999px;
    font-variant-numeric: tabular-nums;
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
  }

  /* Table */
  .table-wrap {
    flex: 1;
    min-height: 0;
    overflow: auto;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.7);
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
  table.data th {
    position: sticky;
    top: 0;
    z-index: 1;
    background: color-mix(in srgb, var(--_border) 30%, var(--_surface));
    color: var(--_muted);
    font-size: 12px;
    font-weight: 600;
  }
  table.data tbody tr:last-child td {
    border-bottom: 0;
  }
  table.data tbody tr:hover td {
    background: color-mix(in srgb, var(--_primary) 4%, transparent);
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

  /* States */
  .skeleton {
    flex: 1;
    min-height: 60px;
    border-radius: calc(var(--_radius) * 0.7);
    background: linear-gradient(
      90deg,
      color-mix(in srgb, var(--_border) 55%, transparent) 0%,
      color-mix(in srgb, var(--_border) 25%, transparent) 40%,
      color-mix(in srgb, var(--_border) 55%, transparent) 80%
    );
    background-size: 300% 100%;
    animation: shimmer 1.4s ease-in-out infinite;
  }
  .skeleton.single-value {
    flex: none;
    width: 55%;
    height: 44px;
    margin: auto 0;
  }
  .skeleton-card {
    grid-column: span 6;
    grid-row: span 4;
    padding: 16px;
    display: flex;
    flex-direction: column;
    gap: 12px;
  }
  .skeleton-line {
    flex: none;
    width: 40%;
    min-height: 14px;
    height: 14px;
  }
  @keyframes shimmer {
    0% {
      background-position: 100% 0;
    }
    100% {
      background-position: -100% 0;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .skeleton,
    .spinner {
      animation-duration: 0s;
      animation-iteration-count: 1;
    }
    .tooltip {
      transition: none;
    }
  }
  .empty,
  .error {
    flex: 1;
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: 6px;
    padding: 12px;
    text-align: center;
    color: var(--_muted);
  }
  .empty svg,
  .error svg {
    width: 28px;
    height: 28px;
    opacity: 0.7;
  }
  .error {
    color: var(--_negative);
  }
  .error-message {
    margin: 0;
    max-width: 46ch;
    color: var(--_text);
  }
  .error-code {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 11px;
    color: var(--_muted);
  }
  .error-page {
    min-height: 220px;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }

  /* Narrow: one column (container query on the element's own width, media query as a fallback) */
  @container (max-width: 639px) {
    .body {
      flex-direction: column;
      align-items: stretch;
    }
    .sidebar {
      display: none;
    }
    .grid {
      grid-template-columns: minmax(0, 1fr);
    }
    .card,
    .skeleton-card {
      grid-column: 1 / -1;
      grid-row: auto / span var(--h, 4);
    }
    .field {
      flex: 1 1 100%;
    }
    .ms > summary {
      max-width: none;
    }
  }
  @supports not (container-type: inline-size) {
    @media (max-width: 639px) {
      .sidebar {
        display: none;
      }
      .grid {
        grid-template-columns: minmax(0, 1fr);
      }
      .card,
      .skeleton-card {
        grid-column: 1 / -1;
        grid-row: auto / span var(--h, 4);
      }
    }
  }
`
