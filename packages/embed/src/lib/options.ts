/** The `options` attribute: JSON `{ height, showFilters, locale, rowHeight, syncUrl }`. */
export interface StrataOptions {
  /** Height of the element (CSS length; a number means pixels). Dashboards grow with their layout when absent. */
  readonly height?: string
  /** Show the filter bar (default: true for <strata-dashboard>, false for <strata-metric>). */
  readonly showFilters?: boolean
  /** BCP 47 locale for numbers and dates (default: the browser's). */
  readonly locale?: string
  /** Height in pixels of one layout row (default 80). */
  readonly rowHeight?: number
  /** Write filters to the page URL and read them back (default true). */
  readonly syncUrl?: boolean
}

const CSS_LENGTH = /^\d+(\.\d+)?(px|em|rem|vh|svh|dvh|%)$/

export function parseOptions(input: unknown): StrataOptions {
  let raw = input
  if (typeof input === 'string') {
    if (input.trim() === '') return {}
    try {
      raw = JSON.parse(input)
    } catch {
      return {}
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {}
  const o = raw as Record<string, unknown>
  const out: { -readonly [K in keyof StrataOptions]: StrataOptions[K] } = {}
  if (typeof o.height === 'number' && Number.isFinite(o.height) && o.height > 0) out.height = `${o.height}px`
  else if (typeof o.height === 'string' && CSS_LENGTH.test(o.height.trim())) out.height = o.height.trim()
  if (typeof o.showFilters === 'boolean') out.showFilters = o.showFilters
  if (typeof o.locale === 'string' && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(o.locale)) out.locale = o.locale
  if (typeof o.rowHeight === 'number' && o.rowHeight >= 20 && o.rowHeight <= 1000) out.rowHeight = o.rowHeight
  if (typeof o.syncUrl === 'boolean') out.syncUrl = o.syncUrl
  return out
}
