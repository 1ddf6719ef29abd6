import { css } from 'lit'

/**
 * The builder's AI band (ai-ask.ts): the Ask box, its progress, answer and error lines, and
 * the suggestions, across the top of the builder's columns (scrolling with them when narrow).
 * On the dashboard's private properties (`--_*`), like builder.styles.ts.
 */
export const aiStyles = css`
  .bd-body.with-ai {
    grid-template-rows: auto minmax(0, 1fr);
  }
  .bd-ai {
    grid-column: 1 / -1;
    display: flex;
    flex-direction: column;
    gap: 10px;
    padding: 14px 16px;
    border-bottom: 1px solid var(--_border);
    background: linear-gradient(
      180deg,
      color-mix(in srgb, var(--_primary) 5%, var(--_surface)),
      var(--_surface)
    );
  }
  .bd-ask {
    display: flex;
    align-items: center;
    gap: 8px;
  }
  .bd-ask-field {
    flex: 1;
    min-width: 0;
    position: relative;
    display: flex;
    align-items: center;
  }
  .bd-ask-icon {
    position: absolute;
    left: 12px;
    display: inline-flex;
    color: var(--_primary);
    pointer-events: none;
  }
  .bd-ask-icon svg,
  .bd-ai-lead svg,
  .bd-ai-mark svg {
    width: 18px;
    height: 18px;
  }
  #bd-ask {
    width: 100%;
    height: 40px;
    padding: 0 12px 0 38px;
    border: 1px solid color-mix(in srgb, var(--_primary) 30%, var(--_border));
    border-radius: calc(var(--_radius) * 0.8);
    background: var(--_surface);
    color: var(--_text);
    font: inherit;
    font-size: 14px;
    box-shadow: 0 1px 2px rgb(16 24 40 / 0.05);
  }
  #bd-ask::placeholder {
    color: var(--_muted);
  }
  #bd-ask:focus-visible {
    outline: 2px solid var(--_primary);
    outline-offset: 1px;
    border-color: var(--_primary);
  }
  #bd-ask[readonly] {
    color: var(--_muted);
  }
  #bd-ask[aria-invalid='true'] {
    border-color: var(--_negative);
  }
  .bd-ask .button {
    height: 40px;
    padding: 0 16px;
  }
  .bd-ask.only-suggest {
    justify-content: space-between;
  }
  .bd-ai-lead {
    display: flex;
    align-items: center;
    gap: 8px;
    margin: 0;
    color: var(--_muted);
  }
  .bd-ai-lead svg {
    flex: none;
    color: var(--_primary);
  }
  .bd-suggest-toggle[aria-expanded='true'] {
    border-color: var(--_primary);
    color: var(--_primary);
    background: color-mix(in srgb, var(--_primary) 7%, var(--_surface));
  }
  .bd-ai-status {
    display: flex;
    align-items: flex-start;
    gap: 10px;
    margin: 0;
    font-size: 13px;
    color: var(--_muted);
  }
  .bd-ai-status p {
    flex: 1;
    min-width: 0;
    margin: 0;
  }
  .bd-ai-status strong {
    display: block;
    color: var(--_text);
    font-weight: 600;
  }
  .bd-ai-sub {
    display: block;
    margin-top: 2px;
    color: var(--_muted);
  }
  .bd-ai-sub code {
    margin-left: 6px;
    font-size: 11px;
    opacity: 0.85;
  }
  .bd-ai-mark {
    flex: none;
    display: inline-flex;
    margin-top: 1px;
    color: var(--_primary);
  }
  .bd-ai-status.asking {
    align-items: center;
    color: var(--_text);
  }
  .bd-ai-status.asking .spinner {
    flex: none;
  }
  .bd-ai-status.answered,
  .bd-ai-status.failed {
    padding: 10px 12px;
    border-radius: calc(var(--_radius) * 0.8);
    border: 1px solid color-mix(in srgb, var(--_primary) 22%, var(--_border));
    background: color-mix(in srgb, var(--_primary) 6%, var(--_surface));
  }
  .bd-ai-status.failed {
    align-items: center;
    border-color: color-mix(in srgb, var(--_negative) 30%, var(--_border));
    background: color-mix(in srgb, var(--_negative) 6%, var(--_surface));
  }
  .bd-ai-status.failed .bd-ai-mark {
    color: var(--_negative);
  }
  .bd-ai-status.failed .bd-ai-mark svg {
    width: 20px;
    height: 20px;
  }
  .bd-ai-status .button {
    flex: none;
  }
  .bd-suggest {
    display: flex;
    flex-direction: column;
    gap: 2px;
  }
  .bd-suggest .bd-section-title {
    margin-bottom: 4px;
  }
  .bd-suggest-list {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    max-height: 132px;
    overflow: auto;
  }
  .bd-suggestion {
    display: inline-flex;
    align-items: center;
    gap: 8px;
    min-height: 34px;
    max-width: 360px;
    padding: 4px 6px 4px 12px;
    border: 1px solid var(--_border);
    border-radius: 999px;
    background: var(--_surface);
    color: var(--_text);
    font: inherit;
    font-size: 13px;
    text-align: left;
    cursor: pointer;
    transition:
      border-color 0.15s,
      background 0.15s;
  }
  .bd-suggestion:hover {
    border-color: color-mix(in srgb, var(--_primary) 45%, var(--_border));
  }
  .bd-suggestion:focus-visible {
    outline: 2px solid var(--_primary);
    outline-offset: 1px;
  }
  .bd-suggestion[aria-pressed='true'] {
    border-color: var(--_primary);
    background: color-mix(in srgb, var(--_primary) 9%, var(--_surface));
    color: var(--_primary);
  }
  .bd-suggestion-name {
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-weight: 550;
  }
  .bd-suggestion-type {
    flex: none;
    padding: 1px 8px;
    border-radius: 999px;
    background: color-mix(in srgb, var(--_muted) 13%, transparent);
    color: var(--_muted);
    font-size: 11px;
    font-weight: 600;
  }
  .bd-suggest-skeleton {
    display: block;
    width: 170px;
    height: 34px;
    border-radius: 999px;
    background: linear-gradient(
      90deg,
      color-mix(in srgb, var(--_muted) 10%, transparent),
      color-mix(in srgb, var(--_muted) 20%, transparent),
      color-mix(in srgb, var(--_muted) 10%, transparent)
    );
    background-size: 200% 100%;
    animation: bd-shimmer 1.2s linear infinite;
  }
  .bd-suggest-list li:nth-child(2n) .bd-suggest-skeleton {
    width: 130px;
  }
  @keyframes bd-shimmer {
    to {
      background-position: -200% 0;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .bd-suggest-skeleton {
      animation: none;
    }
  }
  @media (max-width: 759px) {
    .bd-ask {
      flex-wrap: wrap;
    }
    .bd-ask-field {
      flex-basis: 100%;
    }
    .bd-ask .button {
      flex: 1;
    }
    .bd-ask.only-suggest .button {
      flex: none;
    }
    .bd-ai-status.failed {
      flex-wrap: wrap;
    }
  }
`
