import { cachedIntl } from './intl.js'

/** Numbers as the runtime API sends them: JSON numbers, or strings for decimals and big integers. */

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i

/** A finite number from a cell, or null when the cell is not numeric. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value === 'bigint') return Number(value)
  if (typeof value === 'string') {
    const s = value.trim()
    if (!NUMERIC.test(s)) return null
    const n = Number(s)
    return Number.isFinite(n) ? n : null
  }
  return null
}

export const isNumericType = (dataType: string | undefined): boolean => dataType === 'number' || dataType === 'integer'

/** (value − comparison) / |comparison| as a percentage; null when there is nothing to compare with. */
export function percentChange(value: number | null, comparison: number | null): number | null {
  if (value === null || comparison === null || comparison === 0) return null
  return ((value - comparison) / Math.abs(comparison)) * 100
}

const formatter = cachedIntl((locale, options: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, options))

export interface NumberFormat {
  readonly locale?: string | undefined
  /** Fixed number of decimals; default: up to 2. */
  readonly decimals?: number | undefined
  readonly compact?: boolean | undefined
  /** Most decimals when `decimals` is not given (default 2, compact 1). */
  readonly maxDecimals?: number | undefined
}

export function formatNumber(n: number, o: NumberFormat = {}): string {
  const decimals = o.decimals
  return formatter(o.locale, {
    ...(o.compact ? { notation: 'compact' as const } : {}),
    minimumFractionDigits: decimals ?? 0,
    maximumFractionDigits: decimals ?? o.maxDecimals ?? (o.compact ? 1 : 2),
  }).format(n)
}

/** "▲ 12.5%" / "▼ 3%" / "0%". */
export function formatChange(pct: number, locale?: string): string {
  const text = `${formatNumber(Math.abs(pct), { locale, decimals: Math.abs(pct) < 10 ? 1 : 0 })}%`
  if (pct > 0) return `▲ ${text}`
  if (pct < 0) return `▼ ${text}`
  return text
}

/** Decimals a measure shows, the same for all its values: the most any value needs, at most `max`. */
export function decimalsFor(values: readonly (number | null)[], max = 2): number {
  let most = 0
  for (const v of values) {
    if (v === null || !Number.isFinite(v)) continue
    const fixed = v.toFixed(max).replace(/0+$/, '')
    const dot = fixed.indexOf('.')
    most = Math.max(most, dot < 0 ? 0 : fixed.length - dot - 1)
    if (most === max) break
  }
  return most
}
