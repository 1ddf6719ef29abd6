import { html, type TemplateResult } from 'lit'
import type { StrataApiError } from '../api/errors.js'
import { EMBED_GONE } from '../api/errors.js'
import { alertIcon } from './icons.js'

/** Placeholder cards while the embed loads (shimmer; `prefers-reduced-motion` stops it). */
export function renderLoading(single: boolean): TemplateResult {
  return html`<div class="grid" part="grid" aria-hidden="true">
      ${Array.from(
        { length: single ? 1 : 4 },
        () =>
          html`<div class="card skeleton-card">
            <div class="skeleton skeleton-line" part="skeleton"></div>
            <div class="skeleton" part="skeleton"></div>
          </div>`,
      )}
    </div>
    <span class="sr-only" role="status">Loading dashboard</span>`
}

/** The code and status in small type, for the site's support (the developer's text goes to the console). */
export const renderErrorCode = (error: StrataApiError): TemplateResult =>
  html`<code class="error-code" part="error-code">${error.code}${error.status ? ` · ${error.status}` : ''}</code>`

/**
 * The embed could not be loaded, or every card failed with the same error (a token problem):
 * one plain sentence for the end user, the code small, and a retry. Also what replaces the
 * dashboard when it stopped for good (`stopped`): the embed no longer exists (no retry: it does
 * not come back by asking again), or the session could not be renewed; nothing of the dashboard
 * stays on screen. The server's own message is for developers: `strata-error` and the console.
 */
export function renderLoadError(
  error: StrataApiError,
  retry: () => void,
  what: 'dashboard' | 'metric',
  stopped?: boolean,
): TemplateResult {
  const gone = stopped && error.reason === EMBED_GONE
  return html`<div class="error error-page" part="error" role="alert">
    ${alertIcon}
    <strong>${
      gone
        ? `This ${what} is no longer available`
        : stopped
          ? 'Your session could not be renewed'
          : `This ${what} couldn't load its data`
    }</strong>
    <p class="error-message" part="error-message">${
      stopped ? "Reload the page, or ask the site's support." : "Try again, or contact the site's support."
    }</p>
    ${renderErrorCode(error)}
    ${gone ? '' : html`<button type="button" class="button" part="retry-button" @click=${retry}>Try again</button>`}
  </div>`
}
