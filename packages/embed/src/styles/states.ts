import { css } from 'lit'

/** Loading skeletons (shimmer), "No data", errors. Last, so they win over the card and chart rules. */
export const states = css`
  /* States */
  .skeleton {
    flex: 1;
    min-height: 60px;
    border-radius: calc(var(--_radius) * 0.7);
    background: linear-gradient(
      90deg,
      color-mix(in srgb, var(--_border) 55%, transparent) 0%,
      color-mix(in srgb, var(--_border) 25%, transparent) 40%,
      color-mix(in srgb, var(--_border) 55%, transparent) 80%
    );
    background-size: 300% 100%;
    animation: shimmer 1.4s ease-in-out infinite;
  }
  .skeleton.single-value {
    flex: none;
    width: 55%;
    height: 44px;
    margin: auto 0;
  }
  .skeleton-line {
    flex: none;
    width: 40%;
    min-height: 14px;
    height: 14px;
  }
  @keyframes shimmer {
    0% {
      background-position: 100% 0;
    }
    100% {
      background-position: -100% 0;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .skeleton,
    .spinner {
      animation-duration: 0s;
      animation-iteration-count: 1;
    }
    .tooltip {
      transition: none;
    }
  }
  .unfiltered {
    flex: none;
    margin: -2px 0 2px;
    padding: 0 16px;
    color: var(--_muted);
    font-size: 12px;
    font-style: italic;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .truncated {
    margin: 6px 0 0;
    font-size: 12px;
    color: var(--_muted);
  }

  .empty,
  .error {
    flex: 1;
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: 6px;
    padding: 12px;
    text-align: center;
    color: var(--_muted);
  }
  .empty svg,
  .error svg {
    width: 28px;
    height: 28px;
    opacity: 0.7;
  }
  .error {
    color: var(--_negative);
  }
  /* A short card gives up the icon, then the sentence and the code, never the retry: centred
     while it fits (the auto margins), kept at the bottom when even the gaps do not (flex-end), so
     what overflows is above the button, never the button */
  .card .error {
    min-height: 0;
    gap: 4px;
    padding: 0;
    overflow: hidden;
    justify-content: flex-end;
  }
  .card .error > :first-child {
    margin-top: auto;
  }
  .card .error > :last-child {
    margin-bottom: auto;
  }
  .card .error > * {
    flex: 0 1 auto;
    min-height: 0;
    overflow: hidden;
  }
  .card .error > svg {
    flex-basis: 28px;
  }
  .card .error > .button {
    flex-shrink: 0;
    height: 28px;
  }
  .card[data-state='error'] .card-body {
    padding: 0 12px 4px;
  }
  .error-message {
    margin: 0;
    max-width: 46ch;
    color: var(--_text);
  }
  .error-code {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 11px;
    color: var(--_muted);
  }
  .error-page {
    min-height: 220px;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
`
