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
    /* a card's header keeps its 44 px: the buttons fill it instead of its padding */
    .card-header {
      padding-block: 0;
    }
    .option,
    [role='option'],
    [role='menuitem'] {
      min-height: 44px;
    }
    /* a failing card's Try again: 44 px too, giving up height only in a card too short for it
       (one row), and only after the icon, the sentence and the code have given up theirs */
    .card .error > .button {
      height: 44px;
      min-height: 24px;
      flex-shrink: 1;
    }
    .card .error > :not(.button) {
      flex-shrink: 1000;
    }
  }
`
