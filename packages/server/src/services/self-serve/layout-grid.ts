import { effectiveLayout, GRID_COLUMNS, MAX_CARD_HEIGHT, MAX_LAYOUT_ITEMS } from '@strata/contract/grid'
import { ApiError } from '../../errors.js'
import type { LayoutItem } from '../../query/document.js'
import { type FieldProblem, fieldsError } from '../../validation/fields.js'

/**
 * The grid's rules (12 columns, card limits, compaction, where a missing metric goes) are the
 * contract's, shared with the web component; here: which saved layout applies, and the checks
 * on a layout an end user sends.
 */
/** The saved layouts that apply to a token: its user's, its tenant's (either may be absent). */
export interface SavedLayouts {
  readonly user?: readonly LayoutItem[] | undefined
  readonly tenant?: readonly LayoutItem[] | undefined
}

/**
 * The user's saved layout, else the tenant's, else the company's; then effectiveLayout.
 * `customLayout`: a saved (user or tenant) layout is in effect.
 */
export function resolveLayout(
  saved: SavedLayouts,
  company: readonly LayoutItem[],
  visible: readonly string[],
): { layout: LayoutItem[]; customLayout: boolean } {
  const chosen = saved.user ?? saved.tenant
  return { layout: effectiveLayout(chosen ?? company, visible), customLayout: chosen !== undefined }
}

/**
 * Checks a layout an end user sends (the route's schema has checked the types and ranges):
 * on the grid (x + w ≤ 12, h ≤ 40, at most 500 items), each metric at most once → 400
 * INVALID_REQUEST_BODY naming the item; a metric this token does not see → 400
 * EMBED_PARAM_ERROR, the runtime query's answer, so another tenant's metric ids are not revealed.
 */
export function checkLayout(
  layout: readonly LayoutItem[],
  visible: ReadonlySet<string>,
  embedId: string,
  path = 'layout',
): void {
  if (layout.length > MAX_LAYOUT_ITEMS) {
    throw fieldsError([{ in: 'body', path, problem: `must have at most ${MAX_LAYOUT_ITEMS} items` }])
  }
  const problems: FieldProblem[] = []
  const seen = new Set<string>()
  layout.forEach((item, i) => {
    const at = `${path}[${i}]`
    const int = (v: number) => Number.isInteger(v)
    if (!int(item.x) || item.x < 0) problems.push({ in: 'body', path: `${at}.x`, problem: 'must be an integer ≥ 0' })
    if (!int(item.y) || item.y < 0) problems.push({ in: 'body', path: `${at}.y`, problem: 'must be an integer ≥ 0' })
    if (!int(item.w) || item.w < 1) problems.push({ in: 'body', path: `${at}.w`, problem: 'must be an integer ≥ 1' })
    else if (item.x + item.w > GRID_COLUMNS) {
      problems.push({ in: 'body', path: `${at}.w`, problem: `must keep x + w ≤ ${GRID_COLUMNS} (the grid's columns)` })
    }
    if (!int(item.h) || item.h < 1 || item.h > MAX_CARD_HEIGHT) {
      problems.push({ in: 'body', path: `${at}.h`, problem: `must be an integer from 1 to ${MAX_CARD_HEIGHT}` })
    }
    if (seen.has(item.metricId)) {
      problems.push({ in: 'body', path: `${at}.metricId`, problem: `repeats metric ${item.metricId}` })
    }
    seen.add(item.metricId)
  })
  if (problems.length > 0) throw fieldsError(problems)
  const unknown = layout.find((item) => !visible.has(item.metricId))
  if (unknown) {
    throw new ApiError('EMBED_PARAM_ERROR', 400, `Metric ${unknown.metricId} is not in embed ${embedId}`)
  }
}
