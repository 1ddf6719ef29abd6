/**
 * The server the element talks to when `base-url` is absent: the origin this module was
 * loaded from (the server serves it at /sdk/strata-embed.js), else the page's own origin
 * (when the module was bundled into the host application).
 */
export function defaultBaseUrl(moduleUrl: string | undefined, pageOrigin: string): string {
  if (moduleUrl) {
    try {
      const u = new URL(moduleUrl)
      if (u.protocol === 'http:' || u.protocol === 'https:') return u.origin
    } catch {
      // not a URL: fall through
    }
  }
  return pageOrigin
}

/** The `base-url` attribute (absolute, or relative to the page) without a trailing slash; '' when not http(s). */
export function normalizeBaseUrl(value: string, pageHref?: string): string {
  try {
    const u = new URL(value, pageHref)
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return ''
    return `${u.origin}${u.pathname}`.replace(/\/+$/, '')
  } catch {
    return ''
  }
}
