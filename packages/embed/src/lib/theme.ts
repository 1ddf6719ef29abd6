/** The `theme` attribute: JSON → CSS custom properties and the ECharts palette. */

export const COLOR_KEYS = ['background', 'surface', 'text', 'muted', 'primary', 'border'] as const
export type ColorKey = (typeof COLOR_KEYS)[number]

export interface StrataTheme {
  readonly colors?: Partial<Record<ColorKey, string>>
  readonly font?: string
  /** CSS length; a number means pixels. */
  readonly radius?: string | number
  readonly palette?: readonly string[]
}

/** What the canvas needs: ECharts cannot read CSS variables, so colours are resolved to values. */
export interface ChartTheme {
  readonly palette: readonly string[]
  readonly text: string
  readonly muted: string
  readonly border: string
  readonly surface: string
  readonly font: string
}

export const DEFAULT_PALETTE = [
  '#4f46e5',
  '#0ea5e9',
  '#f59e0b',
  '#10b981',
  '#ef4444',
  '#8b5cf6',
  '#ec4899',
  '#14b8a6',
  '#f97316',
  '#64748b',
] as const

export const DEFAULT_CHART_THEME: ChartTheme = {
  palette: DEFAULT_PALETTE,
  text: '#111827',
  muted: '#6b7280',
  border: '#e5e7eb',
  surface: '#ffffff',
  font: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
}

/** A value safe to put in a custom property: no declaration or rule breakers, no url(). */
const safe = (v: unknown): v is string =>
  typeof v === 'string' && v.trim() !== '' && v.length <= 200 && !/[;{}<>\\]|url\s*\(/i.test(v)

/** Parses the attribute (JSON text) or takes the property (object); drops what is invalid. */
export function parseTheme(input: unknown): StrataTheme {
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
  const t = raw as Record<string, unknown>
  const colors: Partial<Record<ColorKey, string>> = {}
  if (typeof t.colors === 'object' && t.colors !== null) {
    for (const key of COLOR_KEYS) {
      const v = (t.colors as Record<string, unknown>)[key]
      if (safe(v)) colors[key] = v.trim()
    }
  }
  const palette = Array.isArray(t.palette) ? t.palette.filter(safe).map((c) => c.trim()) : []
  const radius =
    typeof t.radius === 'number' ? (Number.isFinite(t.radius) && t.radius >= 0 ? t.radius : undefined) : t.radius
  return {
    ...(Object.keys(colors).length ? { colors } : {}),
    ...(safe(t.font) ? { font: t.font.trim() } : {}),
    ...(typeof radius === 'number' || safe(radius) ? { radius } : {}),
    ...(palette.length ? { palette } : {}),
  }
}

/** The theme as custom properties for the component's root (`--strata-color-*`, `--strata-font`, …). */
export function themeToCssVars(theme: StrataTheme): Record<string, string> {
  const vars: Record<string, string> = {}
  for (const key of COLOR_KEYS) {
    const v = theme.colors?.[key]
    if (v) vars[`--strata-color-${key}`] = v
  }
  if (theme.font) vars['--strata-font'] = theme.font
  if (theme.radius !== undefined)
    vars['--strata-radius'] = typeof theme.radius === 'number' ? `${theme.radius}px` : theme.radius
  if (theme.palette?.length) vars['--strata-palette'] = theme.palette.join(', ')
  return vars
}

/** A comma-separated colour list (`--strata-palette`), commas inside rgb()/hsl() kept. */
export function splitPalette(text: string): string[] {
  const out: string[] = []
  let depth = 0
  let current = ''
  for (const ch of text) {
    if (ch === '(') depth++
    if (ch === ')') depth = Math.max(0, depth - 1)
    if (ch === ',' && depth === 0) {
      if (current.trim()) out.push(current.trim())
      current = ''
    } else current += ch
  }
  if (current.trim()) out.push(current.trim())
  return out.filter(safe)
}

/**
 * Colours for the canvas: the theme attribute first, then the custom properties the host page
 * set (`cssVar(name)` reads the computed style), then the defaults.
 */
export function resolveChartTheme(theme: StrataTheme, cssVar: (name: string) => string = () => ''): ChartTheme {
  const pick = (key: 'text' | 'muted' | 'border' | 'surface') =>
    theme.colors?.[key] || cssVar(`--strata-color-${key}`).trim() || DEFAULT_CHART_THEME[key]
  const cssPalette = splitPalette(cssVar('--strata-palette'))
  return {
    palette: theme.palette?.length ? theme.palette : cssPalette.length ? cssPalette : DEFAULT_CHART_THEME.palette,
    text: pick('text'),
    muted: pick('muted'),
    border: pick('border'),
    surface: pick('surface'),
    font: theme.font || cssVar('--strata-font').trim() || DEFAULT_CHART_THEME.font,
  }
}
