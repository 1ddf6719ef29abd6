import { css } from 'lit'

/** Sidebar, the 12-column grid (one column under 640px) and the metric cards. */
export const layout = css`
  /* Body: the grid at its full width */
  .body {
    flex: 1 0 auto;
    display: flex;
  }
  .single .body {
    flex: 1 1 0;
    min-height: 0;
  }

  /* Metrics panel: a popover under its toggle, over the filters and the grid */
  .sidebar-anchor {
    position: relative;
    margin-left: auto;
    align-self: center;
  }
  .sidebar-toggle[aria-expanded='true'] {
    border-color: var(--_primary);
    color: var(--_primary);
  }
  /* A panel under its toggle in the header (the metrics list, the views menu), over the filters and the grid */
  .header-panel {
    position: absolute;
    z-index: 30;
    top: calc(100% + 6px);
    right: 0;
    max-width: calc(100cqi - 2 * var(--_gap));
    overflow: auto;
    padding: 8px;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow:
      0 12px 24px -6px rgb(16 24 40 / 0.16),
      0 4px 8px -4px rgb(16 24 40 / 0.1);
    animation: pop-in 0.12s ease-out;
  }
  .header-panel[hidden] {
    display: none;
  }
  @keyframes pop-in {
    from {
      opacity: 0;
      transform: translateY(-4px);
    }
  }
  .header-panel h2 {
    margin: 4px 8px 8px;
    font-size: 11px;
    font-weight: 600;
    letter-spacing: 0.06em;
    text-transform: uppercase;
    color: var(--_muted);
  }
  .sidebar {
    width: 260px;
    max-height: min(420px, 70vh);
  }
  .sidebar ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .sidebar button {
    display: block;
    width: 100%;
    padding: 8px;
    border: 0;
    background: transparent;
    border-radius: 6px;
    text-align: left;
    cursor: pointer;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .sidebar button:hover,
  .sidebar button:focus-visible {
    background: color-mix(in srgb, var(--_primary) 8%, transparent);
    color: var(--_primary);
  }
  .sidebar button:focus-visible {
    outline-offset: -2px;
  }

  .grid {
    flex: 1;
    min-width: 0;
    display: grid;
    grid-template-columns: repeat(12, minmax(0, 1fr));
    grid-auto-rows: var(--_row);
    gap: var(--_gap);
  }
  .single .grid {
    display: flex;
    height: 100%;
  }

  /* Cards */
  .card {
    grid-column: var(--x) / span var(--w);
    grid-row: var(--y) / span var(--h);
    display: flex;
    flex-direction: column;
    min-width: 0;
    min-height: 0;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: var(--_shadow);
    overflow: hidden;
    scroll-margin: var(--_gap);
    container-type: inline-size;
  }
  .single .card {
    flex: 1;
  }
  /* A loading placeholder card before the layout is known */
  .skeleton-card {
    grid-column: span 6;
    grid-row: span 4;
    padding: 16px;
    display: flex;
    flex-direction: column;
    gap: 12px;
  }
  .card:focus {
    outline: none;
  }
  .card:focus-visible {
    outline: 2px solid var(--_primary);
  }
  .card-header {
    display: flex;
    align-items: center;
    gap: 8px;
    min-height: 44px;
    padding: 10px 10px 4px 16px;
  }
  .card-title {
    flex: 1;
    min-width: 0;
    margin: 0;
    font-size: 14px;
    font-weight: 600;
    line-height: 1.3;
    /* up to two lines, then cut (the full title is its tooltip) */
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 2;
    line-clamp: 2;
    overflow: hidden;
    overflow-wrap: anywhere;
  }
  /* a narrow card (four across): tighter header buttons, so that a title's words fit whole */
  @container (max-width: 220px) {
    .card-header {
      gap: 2px;
      padding-right: 6px;
    }
    .card-header .icon-button,
    .card-header strata-card-menu::part(card-menu-button) {
      width: 24px;
    }
  }
  .spinner {
    width: 14px;
    height: 14px;
    border: 2px solid color-mix(in srgb, var(--_primary) 25%, transparent);
    border-top-color: var(--_primary);
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  .card-body {
    position: relative;
    flex: 1;
    display: flex;
    flex-direction: column;
    min-height: 0;
    padding: 4px 16px 14px;
  }
  .card[data-state='loading'] .card-body > .stale,
  .card[data-state='expired'] .card-body > .stale {
    opacity: 0.55;
    transition: opacity 0.2s;
  }
  .stale {
    flex: 1;
    display: flex;
    flex-direction: column;
    min-height: 0;
  }

  /* Narrow: one column (container query on the element's own width, media query as a fallback) */
  @container (max-width: 639px) {
    .grid {
      grid-template-columns: minmax(0, 1fr);
    }
    .card,
    .skeleton-card {
      grid-column: 1 / -1;
      grid-row: auto / span var(--h, 4);
    }
    .field {
      flex: 1 1 100%;
    }
    .dd-trigger {
      max-width: none;
    }
  }
  @supports not (container-type: inline-size) {
    @media (max-width: 639px) {
      .grid {
        grid-template-columns: minmax(0, 1fr);
      }
      .card,
      .skeleton-card {
        grid-column: 1 / -1;
        grid-row: auto / span var(--h, 4);
      }
    }
  }
`
