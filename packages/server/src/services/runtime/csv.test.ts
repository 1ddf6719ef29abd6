import { describe, expect, it } from 'vitest'
import { csvHeaders, humanise, toCsv } from './csv.js'

describe('csvHeaders', () => {
  const columns = ['customer', 'revenue', 'refund_rate', 'orders']
  it('keeps the column names of a metric without formats', () => {
    expect(csvHeaders(columns, undefined)).toEqual(columns)
  })
  it('with formats: every column labelled, the unit of a currency or percent column named', () => {
    expect(
      csvHeaders(columns, {
        revenue: { style: 'currency', currency: 'USD', compact: true },
        refund_rate: { style: 'percent', decimals: 1 },
        orders: { style: 'number', decimals: 0 },
      }),
    ).toEqual(['Customer', 'Revenue (USD)', 'Refund rate (fraction)', 'Orders'])
  })
  it('values stay raw under the labelled headers, so a spreadsheet computes with them', () => {
    const csv = toCsv(
      ['revenue', 'refund_rate'],
      [{ revenue: 1250000.5, refund_rate: 0.125 }],
      csvHeaders(['revenue', 'refund_rate'], {
        revenue: { style: 'currency', currency: 'EUR' },
        refund_rate: { style: 'percent' },
      }),
    )
    expect(csv).toBe('Revenue (EUR),Refund rate (fraction)\r\n1250000.5,0.125\r\n')
  })
})

describe('humanise', () => {
  it('reads as the web component’s table headers', () => {
    expect(['order_count', 'avgOrderValue', 'ID', 'month', '__'].map(humanise)).toEqual([
      'Order count',
      'Avg order value',
      'ID',
      'Month',
      '__',
    ])
  })
  it('is the web component’s own rule (packages/embed/src/lib/format.ts), not a copy', async () => {
    const embedFormat = new URL('../../../../embed/src/lib/format.ts', import.meta.url).href
    const embed = (await import(/* @vite-ignore */ embedFormat)) as { humanise(name: string): string }
    expect(humanise).toBe(embed.humanise)
  })
})
