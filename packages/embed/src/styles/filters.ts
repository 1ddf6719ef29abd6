import { css } from 'lit'

/** The filter bar and its controls (dropdowns, ranges). */
export const filters = css`
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
  .control:focus {
    outline: none;
    border-color: var(--_primary);
    box-shadow: 0 0 0 3px color-mix(in srgb, var(--_primary) 20%, transparent);
  }
  /* from the keyboard, a solid ring: the pale halo alone is too faint to find the focus by */
  .control:focus-visible {
    outline: 2px solid var(--_primary);
    outline-offset: 1px;
  }
  .control[readonly],
  .control:disabled {
    background: color-mix(in srgb, var(--_border) 35%, var(--_surface));
    color: var(--_muted);
    cursor: not-allowed;
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
  .range > .dd {
    flex: 1 1 auto;
  }
  .range-sep {
    color: var(--_muted);
  }
  .filters-actions {
    margin-left: auto;
  }

  /* Dropdowns (render/dropdown.ts): one style for every list a filter picks from */
  .dd {
    position: relative;
  }
  .dd-trigger {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 8px;
    width: 100%;
    min-width: 180px;
    max-width: 280px;
    text-align: left;
    cursor: pointer;
    user-select: none;
  }
  .dd-trigger .value {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .dd-trigger .placeholder {
    color: var(--_muted);
  }
  .dd-trigger svg {
    flex: none;
    width: 14px;
    height: 14px;
    color: var(--_muted);
    transition: transform 0.15s;
  }
  .dd-trigger[aria-expanded='true'] svg {
    transform: rotate(180deg);
  }
  .dd-panel {
    position: absolute;
    z-index: 20;
    top: calc(100% + 6px);
    left: 0;
    width: max(100%, 240px);
    max-width: min(320px, calc(100cqi - 2 * var(--_gap)));
    max-height: 300px;
    overflow: auto;
    margin: 0;
    padding: 6px;
    list-style: none;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow:
      0 10px 15px -3px rgb(16 24 40 / 0.1),
      0 4px 6px -4px rgb(16 24 40 / 0.1);
    animation: pop-in 0.12s ease-out;
  }
  .dd-panel[hidden] {
    display: none;
  }
  .dd-panel:focus {
    outline: none;
  }
  .dd-panel.search {
    display: flex;
    flex-direction: column;
    width: max(100%, 260px);
    max-height: none;
    overflow: visible;
    padding: 8px;
  }
  .dd-panel.search[hidden] {
    display: none;
  }
  .dd-panel.search > .control {
    width: 100%;
  }
  .dd-options {
    max-height: 240px;
    overflow: auto;
    margin: 6px 0 0;
    padding: 0;
    list-style: none;
  }
  .option {
    display: flex;
    align-items: center;
    gap: 8px;
    min-height: 32px;
    padding: 6px 8px;
    border-radius: 6px;
    cursor: pointer;
  }
  .option-label {
    flex: 1;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .option[data-active] {
    background: color-mix(in srgb, var(--_primary) 9%, transparent);
  }
  .option[aria-selected='true'] {
    color: var(--_primary);
    font-weight: 550;
  }
  .option > svg {
    width: 14px;
    height: 14px;
  }
  .option .box {
    flex: none;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    width: 16px;
    height: 16px;
    border: 1.5px solid color-mix(in srgb, var(--_muted) 70%, var(--_border));
    border-radius: 4px;
    background: var(--_surface);
  }
  .option[aria-selected='true'] .box {
    border-color: var(--_primary);
    background: var(--_primary);
    color: var(--_surface);
  }
  .option .box svg {
    width: 12px;
    height: 12px;
    stroke-width: 3;
  }
  .hint {
    margin: 6px 8px;
    color: var(--_muted);
    font-size: 12px;
  }
  .dd-footer {
    display: flex;
    justify-content: space-between;
    gap: 8px;
    margin-top: 6px;
    padding-top: 6px;
    border-top: 1px solid var(--_border);
  }
`
