/**
 * A column's format when nothing declares one (docs/dashboard-document.md, "Column formats"),
 * inferred from its name and data type: one rule for the server (the load's `formats`) and the
 * web component (columns the load cannot know, such as a SQL metric's). Plain values, no TypeBox:
 * the web component's entry bundles this module (`@strata/contract/column-formats`).
 */

export type ColumnStyle = 'number' | 'currency' | 'percent' | 'id' | 'text'

/** A format as inferred: a style, and the currency's ISO code with style currency. */
export interface InferredFormat {
  readonly style: ColumnStyle
  readonly currency?: string
}

/** The words of a column name: `customer_id`, `customerId`, `Customer ID` → customer, id. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '')
}

/** Identifiers and codes: drawn as written, never as a quantity. */
const ID_LAST = new Set([
  'id',
  'uuid',
  'guid',
  'key',
  'code',
  'sku',
  'zip',
  'zipcode',
  'postcode',
  'phone',
  'ean',
  'isbn',
])
const ID_PAIRS = new Set(['postal code', 'zip code', 'post code', 'phone number', 'account number', 'order number'])
/** A year reads 2024, never "2,024". */
const TEXT_LAST = new Set(['year', 'yr'])
const MONEY = new Set([
  'price',
  'amount',
  'revenue',
  'cost',
  'costs',
  'sales',
  'subtotal',
  'fee',
  'fees',
  'spend',
  'income',
  'profit',
  'balance',
  'payment',
  'mrr',
  'arr',
  'gmv',
])
const PERCENT_LAST = new Set(['rate', 'pct', 'percent', 'percentage', 'ratio', 'share'])

const NUMERIC = new Set(['number', 'integer', 'decimal', 'float', 'double', 'bigint'])

/**
 * The format of column `name` of data type `dataType` (the engine's: string, number, integer,
 * boolean, date, datetime, json, unknown): `id` for identifiers and codes (`id`, `*_id`, `*Id`,
 * `zip`, `postal_code`, `phone`…); `text` for a year; `currency` for money names (`price`,
 * `amount`, `revenue`, `cost`…) when the model declares a `currency`; `percent` for `*_rate`,
 * `*_pct`, `percent`; `number` for other numeric columns; undefined otherwise (dates, text).
 */
export function inferColumnFormat(name: string, dataType?: string, currency?: string): InferredFormat | undefined {
  const words = nameWords(name)
  const last = words[words.length - 1] ?? ''
  const pair = words.slice(-2).join(' ')
  if (ID_LAST.has(last) || ID_PAIRS.has(pair)) return { style: 'id' }
  if (TEXT_LAST.has(last) && (dataType === undefined || NUMERIC.has(dataType) || dataType === 'unknown'))
    return { style: 'text' }
  const numeric = dataType === undefined || NUMERIC.has(dataType)
  if (!numeric) return undefined
  if (PERCENT_LAST.has(last) || words[0] === 'pct' || words[0] === 'percent') return { style: 'percent' }
  if (currency && words.some((w) => MONEY.has(w))) return { style: 'currency', currency }
  return { style: 'number' }
}

/** Whether a format draws its values as written (an identifier, a code, a year): no grouping, no decimals. */
export const asWritten = (f: { readonly style?: string } | undefined): boolean =>
  f?.style === 'id' || f?.style === 'text'
