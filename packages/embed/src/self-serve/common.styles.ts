import { css } from 'lit'

/**
 * What the self-serve popups share (the builder, the confirmation, the card and archived
 * menus, edit-layout mode's bar): one set of rules for their surface and their buttons, on the
 * dashboard's private properties (`--_*`), which the top layer inherits from the element.
 */

/** A popup's surface: the dashboard's border, background, text and font (declarations, for a rule). */
export const popupSurface = css`
  border: 1px solid var(--_border, #e5e7eb);
  background: var(--_surface, #fff);
  color: var(--_text, #111827);
  font-family: var(--_font, system-ui, sans-serif);
  font-size: 14px;
  line-height: 1.45;
`

/** Modal dialogs (the builder, the confirmation): the surface, a raised shadow, a dimmed backdrop. */
export const dialogStyles = css`
  :host {
    display: contents;
  }
  dialog {
    ${popupSurface}
    border-radius: var(--_radius, 10px);
    box-shadow:
      0 24px 48px -12px rgb(16 24 40 / 0.28),
      0 8px 16px -8px rgb(16 24 40 / 0.16);
  }
  dialog::backdrop {
    background: rgb(16 24 40 / 0.42);
  }
  /* The head (title, close) and foot (status, actions) of a dialog with a scrolling body:
     the metric builder, the report dialog */
  .dialog-head {
    display: flex;
    align-items: center;
    gap: 12px;
    padding: 14px 16px 14px 20px;
    border-bottom: 1px solid var(--_border);
  }
  .dialog-head h2 {
    flex: 1;
    margin: 0;
    font-size: 17px;
    font-weight: 650;
    letter-spacing: -0.01em;
  }
  .dialog-foot {
    display: flex;
    align-items: center;
    gap: 8px;
    padding: 12px 16px 12px 20px;
    border-top: 1px solid var(--_border);
  }
`

/** Primary and destructive buttons, and a spinner in them (the base styles have the plain ones). */
export const buttonStyles = css`
  .button.primary {
    background: var(--_primary);
    border-color: var(--_primary);
    color: #fff;
  }
  .button.primary:hover:not(:disabled) {
    background: color-mix(in srgb, var(--_primary) 88%, #000);
    border-color: color-mix(in srgb, var(--_primary) 88%, #000);
    color: #fff;
  }
  .button.danger {
    background: var(--_negative);
    border-color: var(--_negative);
    color: #fff;
  }
  .button.danger:hover:not(:disabled) {
    background: color-mix(in srgb, var(--_negative) 88%, #000);
    border-color: color-mix(in srgb, var(--_negative) 88%, #000);
    color: #fff;
  }
  .button.primary .spinner,
  .button.danger .spinner {
    border-color: rgb(255 255 255 / 0.35);
    border-top-color: currentColor;
  }
`
