import { css } from 'lit'

/** The filter bar and its controls (multi-select dropdown, ranges). */
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
`
