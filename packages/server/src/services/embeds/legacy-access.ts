import { ApiError } from '../../errors.js'
import { either } from '../../validation/either.js'

/**
 * accessSettings fields as the hosted service's older examples spell them, and the field each
 * is in Strata: `isAllowAipilot` (lower-case p) is the AI pilot flag, `tableList` (items
 * `{ name, clientColumn }`) the per-table client columns. Read on the legacy embed update only
 * (docs/api.md#embeds); every other body keeps refusing them as undeclared fields.
 */
export const LEGACY_ACCESS_SPELLINGS = {
  isAllowAipilot: 'isAllowAiPilot',
  tableList: 'tableTenancySettings',
} as const

const invalidAccess = (message: string) => new ApiError('INVALID_ACCESS_SETTINGS', 400, message)

/** A partial accessSettings with each older spelling renamed to ours (both, disagreeing: 400 naming both). */
export function withCurrentSpellings(settings: object): object {
  const out: Record<string, unknown> = { ...settings }
  for (const [theirs, ours] of Object.entries(LEGACY_ACCESS_SPELLINGS)) {
    if (out[theirs] === undefined) continue
    const value = either(out, ours, theirs, 'accessSettings', invalidAccess)
    delete out[theirs]
    out[ours] = value
  }
  return out
}
