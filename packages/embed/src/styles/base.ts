import { css } from 'lit'

/**
 * Public custom properties (`--strata-*`) feed private ones (`--_*`) on `.root`, the element
 * that also receives the `theme` attribute's values inline, so the attribute wins over the
 * page's CSS, which wins over the defaults here.
 */
export const base = css`
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
    position: relative;
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    justify-content: space-between;
    gap: 12px;
  }
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: flex-end;
    gap: 8px;
    min-height: 34px;
    margin-left: auto;
  }
  .views-anchor {
    position: relative;
  }
  @container (max-width: 479px) {
    .toolbar {
      gap: 6px;
    }
    .toolbar .button {
      padding: 0 9px;
    }
  }
  .views-label {
    max-width: 180px;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
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
`
