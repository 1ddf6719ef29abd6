import { css } from 'lit'

/**
 * The builder's Formats and Compare with controls (format-view.ts): a row per output column,
 * its name above a style select with the currency code and the decimals beside it.
 */
export const formatStyles = css`
  .bd-formats {
    margin: 0;
    padding: 0;
    border: 0;
    display: flex;
    flex-direction: column;
    gap: 10px;
  }
  .bd-format {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto auto;
    gap: 4px 6px;
    align-items: center;
  }
  .bd-format-name {
    grid-column: 1 / -1;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-size: 13px;
  }
  .bd-format .bd-control {
    height: 32px;
  }
  .bd-format .bd-currency {
    width: 4.5em;
    text-transform: uppercase;
    font-family: var(--_mono, ui-monospace, monospace);
  }
  .bd-format .bd-decimals {
    width: auto;
  }
  .bd-format .bd-item-error {
    grid-column: 1 / -1;
  }
  .bd-compare .bd-hint {
    margin-top: 4px;
  }
`
