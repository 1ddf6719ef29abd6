import { css } from 'lit'
import { popupSurface } from '../common.styles.js'

/** Popup menus (a card's actions, the archived list), confirmations and notices. */
export const menuStyles = css`
  :host {
    display: inline-flex;
  }
  [popover] {
    position: fixed;
    inset: auto;
    margin: 0;
    min-width: 200px;
    max-width: min(320px, calc(100vw - 16px));
    padding: 4px;
    ${popupSurface}
    border-radius: 10px;
    box-shadow:
      0 12px 24px -6px rgb(16 24 40 / 0.18),
      0 4px 8px -4px rgb(16 24 40 / 0.1);
  }
  .menu-title {
    margin: 6px 10px 6px;
    font-size: 11px;
    font-weight: 650;
    letter-spacing: 0.06em;
    text-transform: uppercase;
    color: var(--_muted);
  }
  .menu-item {
    display: flex;
    align-items: center;
    gap: 10px;
    width: 100%;
    padding: 8px 10px;
    border: 0;
    border-radius: 6px;
    background: transparent;
    color: inherit;
    text-align: left;
    cursor: pointer;
  }
  .menu-item:hover,
  .menu-item:focus-visible {
    background: color-mix(in srgb, var(--_primary) 9%, transparent);
    color: var(--_primary);
    outline: none;
  }
  .menu-item.danger {
    color: var(--_negative);
  }
  .menu-item.danger:hover,
  .menu-item.danger:focus-visible {
    background: color-mix(in srgb, var(--_negative) 9%, transparent);
    color: var(--_negative);
  }
  .menu-sep {
    height: 1px;
    margin: 4px 6px;
    background: var(--_border);
  }
  .archived-list {
    list-style: none;
    margin: 0;
    padding: 0;
    max-height: 320px;
    overflow: auto;
  }
  .archived-list li {
    display: flex;
    align-items: center;
    gap: 8px;
    padding: 4px 4px 4px 10px;
  }
  .archived-name {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .count {
    min-width: 20px;
    height: 20px;
    padding: 0 6px;
    border-radius: 999px;
    background: color-mix(in srgb, var(--_muted) 16%, transparent);
    font-size: 12px;
    line-height: 20px;
    text-align: center;
  }
  .trigger[aria-expanded='true'] {
    border-color: var(--_primary);
    color: var(--_primary);
  }
`

/** The confirmation dialog (on common.styles.ts's dialogStyles) and the notice (toast). */
export const overlayStyles = css`
  dialog {
    width: min(420px, calc(100vw - 32px));
    padding: 20px;
  }
  dialog h2 {
    margin: 0 0 8px;
    font-size: 16px;
    font-weight: 650;
  }
  dialog p {
    margin: 0 0 20px;
    color: var(--_muted);
  }
  .actions {
    display: flex;
    justify-content: flex-end;
    gap: 8px;
  }
  .toast {
    position: fixed;
    z-index: 40;
    left: 50%;
    bottom: 20px;
    transform: translateX(-50%);
    max-width: min(480px, calc(100vw - 32px));
    padding: 10px 16px;
    border-radius: 8px;
    background: var(--_text, #111827);
    color: var(--_surface, #fff);
    font-family: var(--_font, system-ui, sans-serif);
    font-size: 13px;
    box-shadow: 0 12px 24px -6px rgb(16 24 40 / 0.3);
  }
  .toast.error {
    background: var(--_negative, #dc2626);
    color: #fff;
  }
  .toast:empty {
    display: none;
  }
`
