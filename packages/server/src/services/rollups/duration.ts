import { DURATION_PATTERN } from '@strata/contract/rollups'

const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }
const pattern = new RegExp(DURATION_PATTERN)

/** `30m`, `1h`, `12 hours`, `7 days`, `2w` in milliseconds; undefined when it is none of those. */
export function durationMs(text: string): number | undefined {
  if (!pattern.test(text)) return undefined
  const match = /^(\d+) ?([a-z])/.exec(text)
  if (match === null) return undefined
  const unit = match[2] === 'm' ? 'm' : (match[2] as string)
  const ms = UNIT_MS[unit]
  return ms === undefined ? undefined : Number(match[1]) * ms
}
