import type { ColumnFormat, Comparison, ComparisonPeriod, NumberStyle } from '../../api/types.js'
import { type BuilderState, chartOf, columnOf, fieldKind, type OutputName, outputNames } from './builder-state.js'

/**
 * The builder's column formats and comparison, as pure rules: which output columns take a
 * format, setting and clearing one, what is missing (a currency without its code), and the
 * comparison a metric keeps (only where its chart draws it: a single value's ▲/▼ change).
 */

export const FORMAT_STYLES: readonly NumberStyle[] = ['number', 'currency', 'percent', 'id', 'text']
export const FORMAT_LABELS: Record<NumberStyle, string> = {
  number: 'Number',
  currency: 'Currency',
  percent: 'Percent',
  id: 'ID (as written)',
  text: 'Text (as written)',
}
export const COMPARISON_PERIODS: readonly ComparisonPeriod[] = ['previous-period', 'previous-year']
export const COMPARISON_LABELS: Record<ComparisonPeriod, string> = {
  'previous-period': 'The previous period',
  'previous-year': 'The same period a year before',
}
/** The code a currency format starts with (the author changes it). */
export const DEFAULT_CURRENCY = 'USD'
export const MAX_DECIMALS = 6

/** Whether a style reads as a quantity (it takes decimals); id and text draw a value as written. */
export const takesDecimals = (style: NumberStyle): boolean => style !== 'id' && style !== 'text'

/** The output columns a format applies to: the measures, and dimensions that are not dates. */
export function formattable(state: BuilderState, model: Parameters<typeof columnOf>[0]): OutputName[] {
  return outputNames(state).filter((o) => {
    if (o.role === 'measure') return true
    const d = state.dimensions.find((x) => x.key === o.key)
    if (!d || d.timeGrain) return false
    const col = columnOf(model, state, d)
    return !col || fieldKind(col.dataType) !== 'time'
  })
}

/**
 * The state with output `name`'s format set (undefined: none, the element infers one). A
 * style change keeps what still applies: the currency code only with currency (a new currency
 * starts with DEFAULT_CURRENCY), decimals only with a quantity.
 */
export function setFormat(state: BuilderState, name: string, format: ColumnFormat | undefined): BuilderState {
  const { [name]: _old, ...rest } = state.formats ?? {}
  const formats = format ? { ...rest, [name]: format } : rest
  const { formats: _formats, ...without } = state
  return Object.keys(formats).length ? { ...state, formats } : without
}

/** Output `name`'s format with another style (what still applies kept). */
export function withStyle(old: ColumnFormat | undefined, style: NumberStyle | ''): ColumnFormat | undefined {
  if (style === '') return undefined
  const decimals = takesDecimals(style) && old?.decimals !== undefined ? { decimals: old.decimals } : {}
  const compact = takesDecimals(style) && old?.compact !== undefined ? { compact: old.compact } : {}
  const currency = style === 'currency' ? { currency: old?.currency ?? DEFAULT_CURRENCY } : {}
  return { style, ...currency, ...decimals, ...compact }
}

/** A format's decimals set ('' : automatic). */
export function withDecimals(format: ColumnFormat, decimals: string): ColumnFormat {
  const { decimals: _old, ...rest } = format
  const n = Number(decimals)
  return decimals === '' || !Number.isInteger(n) || n < 0 || n > MAX_DECIMALS ? rest : { ...rest, decimals: n }
}

/** A currency format's code as typed: upper case, letters only, at most three. */
export function withCurrency(format: ColumnFormat, code: string): ColumnFormat {
  return {
    ...format,
    currency: code
      .toUpperCase()
      .replace(/[^A-Z]/g, '')
      .slice(0, 3),
  }
}

/** Whether the chart draws a comparison (a single value's change against it). */
export const showsComparison = (state: BuilderState): boolean =>
  chartOf(state) === 'single-value' && state.measures.length > 0

/** The state with a comparison chosen (undefined: none). */
export function setComparison(state: BuilderState, period: ComparisonPeriod | undefined): BuilderState {
  const { comparison: _old, ...rest } = state
  return period ? { ...rest, comparison: period } : rest
}

/** The comparison the metric keeps: the one chosen, where its chart draws it; else none. */
export const comparisonOf = (state: BuilderState): Comparison | undefined =>
  state.comparison && showsComparison(state) ? { period: state.comparison } : undefined
