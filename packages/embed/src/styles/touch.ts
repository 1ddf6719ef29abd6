import { css } from 'lit'

/**
 * A finger's sizes: on a touch screen or a narrow one, every control an end user taps (buttons,
 * icon buttons, fields, list options, menu items) is at least 44 px tall; with a mouse on a wide
 * screen the compact sizes stay. Last in the cascade, so it wins over each control's own height.
 */
export const touch = css`
  @media (pointer: coarse), (max-width: 599px) {
    .button,
    .button.subtle,
    .control {
      height: auto;
      min-height: 44px;
    }
    .icon-button {
      width: 44px;
      height: 44px;
    }
    .option,
    [role='option'],
    [role='menuitem'] {
      min-height: 44px;
    }
  }
`
