import { css } from 'lit'

/**
 * Edit-layout mode and the views menu, adopted by the element when the module loads. Built on
 * the element's own look (styles/*): its surface, border, radius, primary colour and buttons
 * (primary and danger ones: common.styles.ts, adopted with these).
 * Nothing here changes a card's size or place: the handles are drawn over the cards.
 */
export const selfServeStyles = css`
  /* Edit mode: cards */
  .card.editing {
    position: relative;
    outline: 1px dashed color-mix(in srgb, var(--_primary) 45%, transparent);
    outline-offset: -1px;
  }
  .card.editing:focus-visible {
    outline: 2px solid var(--_primary);
    outline-offset: 1px;
  }
  .edit-shield {
    position: absolute;
    inset: 0;
    z-index: 2;
    cursor: grab;
    touch-action: none;
    background: color-mix(in srgb, var(--_primary) 3%, transparent);
    border-radius: inherit;
    transition: background 0.15s;
  }
  .edit-shield:hover {
    background: color-mix(in srgb, var(--_primary) 7%, transparent);
  }
  /* two rows of dots, top centre: "drag me" */
  .grip {
    position: absolute;
    top: 5px;
    left: 50%;
    width: 24px;
    height: 10px;
    margin-left: -12px;
    background: radial-gradient(circle, var(--_muted) 1.4px, transparent 1.8px) 0 0 / 6px 5px;
    opacity: 0.65;
  }
  .edit-shield:hover .grip {
    opacity: 1;
  }
  .size {
    position: absolute;
    right: 8px;
    bottom: 6px;
    padding: 1px 6px;
    border-radius: 999px;
    background: var(--_surface);
    border: 1px solid var(--_border);
    color: var(--_muted);
    font-size: 11px;
    font-variant-numeric: tabular-nums;
    margin-right: 16px;
  }
  .resize-handle {
    position: absolute;
    right: 0;
    bottom: 0;
    z-index: 3;
    width: 22px;
    height: 22px;
    cursor: nwse-resize;
    touch-action: none;
    border-bottom-right-radius: inherit;
    background: linear-gradient(
      135deg,
      transparent 0 52%,
      var(--_primary) 52% 58%,
      transparent 58% 68%,
      var(--_primary) 68% 74%,
      transparent 74%
    );
    opacity: 0.75;
  }
  .resize-handle:hover {
    opacity: 1;
  }
  .card.dragging {
    z-index: 20;
    box-shadow:
      0 18px 36px -8px rgb(16 24 40 / 0.28),
      0 6px 12px -6px rgb(16 24 40 / 0.16);
  }
  .card.dragging .edit-shield {
    cursor: grabbing;
  }
  .drop-target {
    grid-column: var(--x) / span var(--w);
    grid-row: var(--y) / span var(--h);
    border: 2px dashed color-mix(in srgb, var(--_primary) 60%, transparent);
    background: color-mix(in srgb, var(--_primary) 8%, transparent);
    border-radius: var(--_radius);
    pointer-events: none;
  }
  @container (max-width: 639px) {
    .drop-target {
      display: none;
    }
  }

  /* Edit mode: the bar over the header (the header keeps its place: nothing below moves) */
  .edit-bar {
    position: absolute;
    inset: 0;
    z-index: 25;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px 12px;
    padding: 0 0 0 12px;
    background: var(--_bg);
  }
  .edit-bar::before {
    content: '';
    position: absolute;
    inset: -4px -4px;
    z-index: -1;
    border-radius: var(--_radius);
    background: color-mix(in srgb, var(--_primary) 8%, var(--_surface));
    border: 1px solid color-mix(in srgb, var(--_primary) 30%, var(--_border));
  }
  .edit-bar-title {
    font-weight: 600;
    color: var(--_primary);
  }
  .edit-bar-error {
    color: var(--_negative);
    font-size: 13px;
  }
  .edit-bar-actions {
    display: flex;
    align-items: center;
    gap: 8px;
    margin-left: auto;
  }
  @container (max-width: 479px) {
    .edit-bar-title {
      display: none;
    }
    .edit-bar {
      padding: 0;
    }
    .edit-bar-actions {
      margin-left: 0;
      width: 100%;
      justify-content: flex-end;
    }
  }

  /* Views menu: a header panel (layout.ts) under its toggle */
  .views-panel {
    width: 320px;
    max-height: min(480px, 75vh);
  }
  /* narrow: the panel spans the header (its toggle may sit at the left edge) */
  @container (max-width: 479px) {
    .views-anchor {
      position: static;
    }
    .views-panel {
      left: 0;
      right: 0;
      width: auto;
      max-width: none;
    }
  }
  .views-empty {
    margin: 0 8px 12px;
    color: var(--_muted);
    font-size: 13px;
  }
  .views-empty strong {
    display: block;
    color: var(--_text);
    font-weight: 600;
  }
  .views-list {
    list-style: none;
    margin: 0 0 8px;
    padding: 0;
  }
  .view-row {
    display: flex;
    align-items: center;
    gap: 4px;
    min-height: 36px;
  }
  .view-row.confirming {
    gap: 6px;
    padding: 2px 4px 2px 8px;
    border-radius: 6px;
    background: color-mix(in srgb, var(--_negative) 7%, transparent);
  }
  .view-row.confirming .button {
    height: 28px;
  }
  .view-confirm {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-size: 13px;
  }
  .view-apply {
    flex: 1;
    min-width: 0;
    display: flex;
    align-items: center;
    gap: 6px;
    height: 34px;
    padding: 0 8px 0 4px;
    border: 0;
    background: transparent;
    border-radius: 6px;
    text-align: left;
    cursor: pointer;
  }
  .view-apply:hover,
  .view-apply:focus-visible {
    background: color-mix(in srgb, var(--_primary) 8%, transparent);
    color: var(--_primary);
  }
  .view-apply:focus-visible {
    outline-offset: -2px;
  }
  .view-apply[aria-current='true'] {
    font-weight: 600;
    color: var(--_primary);
  }
  .view-check {
    display: inline-flex;
    width: 16px;
    flex: none;
  }
  .view-name {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .view-tag {
    flex: none;
    padding: 0 6px;
    border-radius: 999px;
    border: 1px solid var(--_border);
    color: var(--_muted);
    font-size: 11px;
    font-weight: 500;
  }
  .views-save {
    display: flex;
    flex-direction: column;
    gap: 6px;
    padding: 10px 8px 4px;
    border-top: 1px solid var(--_border);
  }
  .views-save label {
    font-size: 12px;
    font-weight: 550;
    color: var(--_muted);
  }
  .views-save-row {
    display: flex;
    gap: 8px;
  }
  .views-save-row .control {
    flex: 1;
  }
  .views-error {
    margin: 8px;
    color: var(--_negative);
    font-size: 13px;
  }
`
