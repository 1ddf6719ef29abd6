import { css } from 'lit'

/**
 * The email report controls: the "Schedule report" dialog (on common.styles.ts's dialogStyles,
 * laid out as the builder's head / body / foot) and the reports panel (on menu.styles.ts).
 */
export const reportDialogStyles = css`
  dialog {
    width: min(560px, calc(100vw - 32px));
    max-height: calc(100dvh - 32px);
    max-width: none;
    padding: 0;
    overflow: hidden;
  }
  dialog[open] {
    display: flex;
    flex-direction: column;
  }
  .rp-form {
    display: flex;
    flex-direction: column;
    min-height: 0;
    flex: 1;
  }
  .rp-body {
    flex: 1;
    min-height: 0;
    overflow: auto;
    padding: 18px 20px 20px;
    display: flex;
    flex-direction: column;
    gap: 18px;
  }
  .rp-field {
    margin: 0;
    padding: 0;
    border: 0;
    min-width: 0;
  }
  .rp-label {
    display: block;
    margin: 0 0 6px;
    padding: 0;
    font-size: 11px;
    font-weight: 650;
    letter-spacing: 0.06em;
    text-transform: uppercase;
    color: var(--_muted);
  }
  .rp-sublabel {
    display: block;
    margin: 0 0 4px;
    font-size: 12px;
    color: var(--_muted);
  }
  .rp-control {
    box-sizing: border-box;
    width: 100%;
    height: 36px;
    padding: 0 10px;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.7);
    background: var(--_surface);
  }
  .rp-control:hover {
    border-color: color-mix(in srgb, var(--_primary) 35%, var(--_border));
  }
  .rp-control:focus-visible {
    outline: 2px solid var(--_primary);
    outline-offset: 0;
    border-color: var(--_primary);
  }
  .rp-control[aria-invalid='true'] {
    border-color: var(--_negative);
    background: color-mix(in srgb, var(--_negative) 4%, var(--_surface));
  }
  .rp-control[aria-invalid='true']:focus-visible {
    outline-color: var(--_negative);
  }
  .rp-hint,
  .rp-error,
  .rp-when {
    margin: 6px 0 0;
    font-size: 12.5px;
    color: var(--_muted);
  }
  .rp-error,
  .rp-when {
    display: flex;
    align-items: flex-start;
    gap: 6px;
  }
  .rp-error {
    color: var(--_negative);
    font-weight: 500;
  }
  .rp-error svg,
  .rp-when svg {
    width: 14px;
    height: 14px;
    margin-top: 2px;
  }
  .rp-when {
    color: var(--_text);
    font-weight: 550;
  }
  .rp-when svg {
    color: var(--_primary);
  }
  .rp-muted {
    color: var(--_muted);
  }
  .rp-choices {
    display: flex;
    flex-wrap: wrap;
    gap: 6px 20px;
  }
  .rp-choice,
  .rp-check {
    display: inline-flex;
    align-items: center;
    gap: 8px;
    min-height: 28px;
    cursor: pointer;
  }
  .rp-choice input,
  .rp-check input {
    width: 16px;
    height: 16px;
    margin: 0;
    accent-color: var(--_primary);
  }
  .rp-metrics {
    list-style: none;
    margin: 8px 0 0;
    padding: 6px 10px;
    max-height: 168px;
    overflow: auto;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.7);
    background: var(--_bg, #f6f7f9);
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(190px, 1fr));
    gap: 0 12px;
  }
  .rp-check span {
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .rp-formats {
    display: grid;
    grid-template-columns: repeat(3, minmax(0, 1fr));
    gap: 8px;
  }
  .rp-format {
    position: relative;
    display: flex;
    flex-direction: column;
    gap: 2px;
    padding: 10px 12px;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.8);
    background: var(--_surface);
    cursor: pointer;
    transition:
      border-color 0.12s,
      background 0.12s;
  }
  .rp-format:hover {
    border-color: color-mix(in srgb, var(--_primary) 35%, var(--_border));
  }
  .rp-format input {
    position: absolute;
    opacity: 0;
    inset: 0;
    margin: 0;
    cursor: pointer;
  }
  .rp-format strong {
    font-size: 14px;
    font-weight: 650;
  }
  .rp-format span {
    font-size: 12px;
    line-height: 1.35;
    color: var(--_muted);
  }
  .rp-format:has(input:checked) {
    border-color: var(--_primary);
    background: color-mix(in srgb, var(--_primary) 7%, var(--_surface));
    box-shadow: inset 0 0 0 1px var(--_primary);
  }
  .rp-format:has(input:checked) strong {
    color: var(--_primary);
  }
  .rp-format:has(input:focus-visible) {
    outline: 2px solid var(--_primary);
    outline-offset: 2px;
  }
  .rp-schedule {
    display: flex;
    flex-wrap: wrap;
    gap: 10px;
  }
  .rp-schedule > div {
    flex: 1 1 96px;
    min-width: 0;
  }
  /* the time keeps room for its hours, minutes and AM/PM */
  .rp-schedule > div:last-child {
    flex: 0 0 136px;
  }
  .rp-filters {
    padding: 10px 12px;
    border-radius: calc(var(--_radius) * 0.8);
    background: color-mix(in srgb, var(--_primary) 6%, var(--_surface));
    border: 1px solid color-mix(in srgb, var(--_primary) 18%, var(--_border));
    font-size: 13px;
  }
  .rp-filters p {
    margin: 0;
  }
  .rp-filters strong {
    font-weight: 600;
  }
  .rp-filters ul {
    margin: 4px 0 0;
    padding: 0 0 0 18px;
  }
  .rp-status {
    flex: 1;
    min-width: 0;
    display: flex;
    align-items: flex-start;
    gap: 6px;
    font-size: 13px;
    color: var(--_negative);
  }
  .rp-status svg {
    margin-top: 2px;
  }
  .rp-code {
    display: inline-block;
    margin-left: 4px;
    padding: 0 5px;
    border-radius: 4px;
    background: color-mix(in srgb, var(--_negative) 10%, transparent);
    font-size: 11.5px;
  }
  .dialog-foot .button {
    flex: none;
  }
  @media (max-width: 599px) {
    dialog {
      width: 100vw;
      height: 100dvh;
      max-height: none;
      border-radius: 0;
      border: 0;
    }
    .rp-body {
      padding: 16px;
    }
    .rp-formats {
      grid-template-columns: minmax(0, 1fr);
    }
    .rp-format {
      flex-direction: row;
      align-items: baseline;
      gap: 8px;
    }
    .dialog-foot {
      flex-wrap: wrap;
      padding: 12px 16px;
    }
    .rp-status {
      flex-basis: 100%;
    }
    .rp-status:empty {
      display: none;
    }
    .dialog-foot .button {
      flex: 1;
    }
  }
`

/** The reports panel under its toolbar button. */
export const reportsMenuStyles = css`
  [popover] {
    text-align: left;
    width: min(400px, calc(100vw - 16px));
    max-width: none;
    max-height: min(560px, calc(100dvh - 80px));
    padding: 0;
    overflow: hidden;
    flex-direction: column;
  }
  [popover]:popover-open {
    display: flex;
  }
  .rp-list-head {
    padding: 8px 8px 2px;
  }
  .rp-list {
    list-style: none;
    margin: 0;
    padding: 0 8px;
    overflow: auto;
    min-height: 0;
    flex: 1;
  }
  .rp-item {
    padding: 10px 10px 8px;
    border-radius: 8px;
    border: 1px solid transparent;
  }
  .rp-item + .rp-item {
    border-top-color: var(--_border);
    border-top-left-radius: 0;
    border-top-right-radius: 0;
  }
  .rp-item.new {
    background: color-mix(in srgb, var(--_primary) 6%, transparent);
  }
  .rp-item.confirming {
    background: color-mix(in srgb, var(--_negative) 7%, transparent);
  }
  .rp-item-head {
    display: flex;
    align-items: center;
    gap: 8px;
  }
  .rp-item-name {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-weight: 600;
  }
  .rp-what {
    flex: none;
    font-size: 12px;
    color: var(--_muted);
  }
  .rp-tag {
    flex: none;
    padding: 1px 6px;
    border-radius: 4px;
    background: color-mix(in srgb, var(--_muted) 14%, transparent);
    color: var(--_muted);
    font-size: 11px;
    font-weight: 650;
    letter-spacing: 0.04em;
  }
  .rp-item-line {
    margin: 2px 0 0;
    font-size: 13px;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .rp-muted {
    color: var(--_muted);
  }
  .rp-status {
    font-size: 12px;
    color: var(--_muted);
    white-space: normal;
  }
  .rp-status.is-retrying,
  .rp-status.is-stopped {
    color: var(--_negative);
  }
  .rp-actions {
    display: flex;
    align-items: center;
    justify-content: flex-end;
    gap: 4px;
    margin-top: 6px;
  }
  .rp-actions .button {
    height: 28px;
    padding: 0 10px;
    font-size: 12.5px;
  }
  .rp-sent {
    flex: 1;
    min-width: 0;
    font-size: 12px;
    color: var(--_muted);
  }
  .rp-sent.is-sent {
    color: var(--_positive);
    font-weight: 550;
  }
  .rp-sent.is-error {
    color: var(--_negative);
  }
  .rp-send-error {
    display: flex;
    align-items: flex-start;
    gap: 6px;
    margin: 6px 0 0;
    padding: 6px 8px;
    border-radius: 6px;
    background: color-mix(in srgb, var(--_negative) 8%, transparent);
    color: var(--_negative);
    font-size: 12.5px;
  }
  .rp-send-error svg {
    width: 14px;
    height: 14px;
    margin-top: 2px;
  }
  .rp-confirm {
    margin-top: 6px;
    font-size: 13px;
  }
  .rp-list-empty {
    display: flex;
    flex-direction: column;
    align-items: center;
    gap: 4px;
    padding: 18px 20px 8px;
    text-align: center;
  }
  .rp-list-empty p {
    margin: 0;
    color: var(--_muted);
    font-size: 13px;
  }
  .rp-list-empty strong {
    font-weight: 600;
  }
  .rp-empty-icon {
    display: grid;
    place-items: center;
    width: 40px;
    height: 40px;
    margin-bottom: 4px;
    border-radius: 50%;
    background: color-mix(in srgb, var(--_primary) 10%, transparent);
    color: var(--_primary);
  }
  .rp-empty-icon svg {
    width: 20px;
    height: 20px;
  }
  .rp-list-message {
    display: flex;
    align-items: center;
    gap: 8px;
    padding: 14px 12px;
    color: var(--_muted);
    font-size: 13px;
  }
  .rp-list-message p {
    flex: 1;
    margin: 0;
  }
  .rp-list-message.is-failed {
    color: var(--_negative);
  }
  .rp-list-error {
    margin: 6px 12px 0;
    font-size: 12.5px;
    color: var(--_negative);
  }
  .rp-list-foot {
    display: flex;
    justify-content: flex-end;
    padding: 10px 12px 12px;
    border-top: 1px solid var(--_border);
    margin-top: 6px;
  }
  .rp-list-empty + .rp-list-foot {
    justify-content: center;
    border-top: 0;
  }
`
