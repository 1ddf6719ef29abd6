/**
 * The date presets of docs/dashboard-document.md#date-presets, in display spelling; matched case-insensitively. Plain
 * values, no TypeBox: the web component bundles this module (`@strata/contract/date-presets`).
 * The server evaluates them (query/date-presets.ts).
 */
export const DATE_PRESETS = [
  'Today',
  'Yesterday',
  'This week',
  'Last week',
  'Last 7 days',
  'Last 14 days',
  'Last 30 days',
  'Last 90 days',
  'This month',
  'Last month',
  'This quarter',
  'Last quarter',
  'This year',
  'Last year',
  'Last 12 months',
  'All time',
] as const
export type DatePreset = (typeof DATE_PRESETS)[number]

const PRESETS = new Map<string, DatePreset>(DATE_PRESETS.map((p) => [p.toLowerCase(), p]))

/** The preset a label names (case and surrounding or repeated blanks ignored), or undefined. */
export function matchPreset(label: string): DatePreset | undefined {
  return PRESETS.get(label.trim().replace(/\s+/g, ' ').toLowerCase())
}
