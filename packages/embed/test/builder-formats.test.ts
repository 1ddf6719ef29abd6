import { describe, expect, it } from 'vitest'
import type { Model } from '../src/api/types.js'
import {
  addDimension,
  addMeasure,
  type BuilderState,
  emptyState,
  fromDefinition,
  toDefinition,
} from '../src/self-serve/builder/builder-state.js'
import {
  comparisonOf,
  formattable,
  setComparison,
  setFormat,
  showsComparison,
  withCurrency,
  withDecimals,
  withStyle,
} from '../src/self-serve/builder/formats.js'

const model: Model = {
  tables: [
    {
      name: 'main.orders',
      label: 'Orders',
      columns: [
        { name: 'amount', label: 'Amount', dataType: 'number' },
        { name: 'channel', label: 'Channel', dataType: 'string' },
        { name: 'created_at', label: 'Created at', dataType: 'datetime' },
      ],
    },
  ],
  relationships: [],
} as unknown as Model
const col = (name: string) => {
  const c = model.tables[0]?.columns.find((x) => x.name === name)
  if (!c) throw new Error(name)
  return c
}
/** Total amount, as a number. */
const single = (): BuilderState => addMeasure(emptyState('main.orders'), col('amount'))
const definitionOf = (s: BuilderState) => {
  const r = toDefinition(s, model)
  if (!r.ok) throw new Error(JSON.stringify(r.problems))
  return r.metric
}

describe("the builder's column formats", () => {
  it('offers a format for measures and for dimensions that are not dates', () => {
    let s = addDimension(single(), col('channel'))
    s = addDimension(s, col('created_at'))
    expect(formattable(s, model).map((o) => o.name)).toEqual(['channel', 'sum_amount'])
  })

  it('saves a currency format with its code and decimals in the definition, and reads it back', () => {
    const currency = withStyle(undefined, 'currency')
    expect(currency).toEqual({ style: 'currency', currency: 'USD' })
    const eur = withDecimals(withCurrency(currency ?? { style: 'number' }, 'eur'), '2')
    const s = setFormat(single(), 'sum_amount', eur)
    const metric = definitionOf(s)
    expect(metric.formats).toEqual({ sum_amount: { style: 'currency', currency: 'EUR', decimals: 2 } })
    expect(fromDefinition(metric, model).formats).toEqual(metric.formats)
  })

  it('drops what a new style does not take: the code without currency, decimals with id or text', () => {
    const f = { style: 'currency' as const, currency: 'JPY', decimals: 0 }
    expect(withStyle(f, 'percent')).toEqual({ style: 'percent', decimals: 0 })
    expect(withStyle(f, 'id')).toEqual({ style: 'id' })
    expect(withStyle(f, 'currency')).toEqual(f)
    expect(withDecimals({ style: 'number', decimals: 3 }, '')).toEqual({ style: 'number' })
  })

  it('clears a format back to automatic, leaving no empty formats object', () => {
    const s = setFormat(setFormat(single(), 'sum_amount', { style: 'percent' }), 'sum_amount', undefined)
    expect(s.formats).toBeUndefined()
    expect(definitionOf(s).formats).toBeUndefined()
  })

  it('refuses a currency without a three-letter code, naming the column it is on', () => {
    const s = setFormat(single(), 'sum_amount', withCurrency({ style: 'currency' }, 'E'))
    const r = toDefinition(s, model)
    expect(r.ok).toBe(false)
    if (!r.ok)
      expect(r.problems).toEqual([{ where: 'format-sum_amount', message: expect.stringMatching(/three-letter/) }])
  })

  it('keeps only the formats of outputs the metric still has', () => {
    const s = setFormat(single(), 'gone', { style: 'percent' })
    expect(definitionOf(s).formats).toBeUndefined()
  })
})

describe("the builder's comparison", () => {
  it('is offered on a single value only', () => {
    expect(showsComparison(single())).toBe(true)
    expect(showsComparison(addDimension(single(), col('channel')))).toBe(false)
    expect(showsComparison({ ...single(), chart: 'table' })).toBe(false)
  })

  it('is kept where the chart draws it, and dropped when the chart no longer does', () => {
    const s = setComparison(single(), 'previous-year')
    expect(comparisonOf(s)).toEqual({ period: 'previous-year' })
    expect(comparisonOf({ ...s, chart: 'table' })).toBeUndefined()
    expect(comparisonOf(setComparison(s, undefined))).toBeUndefined()
    expect(setComparison(s, undefined)).not.toHaveProperty('comparison')
  })

  it('starts from the metric’s own comparison when one is edited, and never enters the definition', () => {
    const metric = definitionOf(single())
    const s = fromDefinition(metric, model, 'previous-period')
    expect(comparisonOf(s)).toEqual({ period: 'previous-period' })
    expect(definitionOf(s)).not.toHaveProperty('comparison')
  })
})
