import { asWritten } from '@strata/contract/column-formats'
import type { ColumnFormat } from '../api/types.js'
import { cachedIntl } from './intl.js'
import { decimalsFor } from './numbers.js'

/**
 * Numbers by their column's format (the dashboard document's `formats`: number, currency or
 * percent, decimals, compact; id and text: as written). Where a number is shown decides what happens without a format:
 *
 * - `value`: a table cell, a tooltip, the screen-reader table: the column's decimals, never compact;
 * - `tick`: an axis tick: compact from 10,000 on, as few decimals as it needs (at most 2, compact 1);
 * - `single`: a single value on its card: compact from 100,000 on (up to 2 decimals);
 * - `full`: a single value in full (its hover title and summary): never compact.
 *
 * A format's `compact` overrides the thresholds (true: always, false: never; `full` stays full),
 * its `decimals` the column's. A currency shows its own minor units (USD 2, JPY 0) unless
 * `decimals` says otherwise; a percent is a fraction (0.25 → 25%).
 */
export type NumberUse = 'value' | 'tick' | 'single' | 'full'

export interface MeasureOptions {
  readonly locale?: string | undefined
  /** The column's decimals when the format names none (`chart.decimals`, else `columnDecimals`). */
  readonly decimals?: number | undefined
}

const formatter = cachedIntl((locale, options: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, options))

const AUTO_COMPACT: Record<NumberUse, number> = { value: Infinity, tick: 10_000, single: 100_000, full: Infinity }

export function formatMeasure(n: number, use: NumberUse, f?: ColumnFormat, o: MeasureOptions = {}): string {
  // an identifier, a code or a year: as written (48318, 2024), never as a quantity
  if (asWritten(f)) return String(n)
  const compact = use !== 'full' && (f?.compact ?? Math.abs(n) >= AUTO_COMPACT[use])
  const style: Intl.NumberFormatOptions =
    f?.style === 'currency' && f.currency
      ? { style: 'currency', currency: f.currency }
      : f?.style === 'percent'
        ? { style: 'percent' }
        : {}
  // A compact single value shows up to 2 decimals ("22.57M") unless the format fixes them.
  const fixed = f?.decimals ?? (f?.style === 'currency' || (use === 'single' && compact) ? undefined : o.decimals)
  const digits: Intl.NumberFormatOptions =
    fixed !== undefined
      ? { minimumFractionDigits: fixed, maximumFractionDigits: fixed }
      : style.style === 'currency' && !compact && use !== 'tick'
        ? {} // the currency's own minor units
        : { minimumFractionDigits: 0, maximumFractionDigits: use === 'single' || !compact ? 2 : 1 }
  return formatter(o.locale, { ...style, ...(compact ? { notation: 'compact' as const } : {}), ...digits }).format(n)
}

/**
 * The decimals a column shows when its format names none, the same for all its values: the most
 * any value needs, at most 2 (a percent: of its percentage, at most 1). A currency: undefined
 * (its own minor units).
 */
export function columnDecimals(values: readonly (number | null)[], f?: ColumnFormat): number | undefined {
  if (f?.decimals !== undefined) return f.decimals
  if (f?.style === 'currency') return undefined
  if (f?.style === 'percent')
    return decimalsFor(
      values.map((v) => (v === null ? null : v * 100)),
      1,
    )
  return decimalsFor(values)
}

/** Whether two formats read the same on one axis (style and currency). */
export const sameUnit = (a?: ColumnFormat, b?: ColumnFormat): boolean =>
  (a?.style ?? 'number') === (b?.style ?? 'number') && a?.currency === b?.currency
