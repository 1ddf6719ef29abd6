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

/**
 * The embed could not be loaded: the server's message and code, and a retry. Also what replaces
 * the dashboard when it stopped for good (`stopped`): the embed no longer exists (no retry: it
 * does not come back by asking again), or the session could not be renewed; nothing of the
 * dashboard stays on screen.
 */
export function renderLoadError(error: StrataApiError, retry: () => void, stopped?: string): TemplateResult {
  const gone = error.reason === EMBED_GONE
  return html`<div class="error error-page" part="error" role="alert">
    ${alertIcon}
    ${stopped ? html`<strong>${gone ? `This ${stopped} is no longer available` : error.message}</strong>` : ''}
    <p class="error-message" part="error-message">${
      stopped ? "Reload the page, or ask the site's support." : error.message
    }</p>
    <code class="error-code" part="error-code">${error.code}${error.status ? ` · ${error.status}` : ''}</code>
    ${gone ? '' : html`<button type="button" class="button" part="retry-button" @click=${retry}>Try again</button>`}
  </div>`
}
