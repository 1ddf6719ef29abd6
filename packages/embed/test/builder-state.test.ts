import { describe, expect, it } from 'vitest'
import type { MetricDefinition, Model, ModelColumn } from '../src/api/types.js'
import {
  addDimension,
  addFilter,
  addMeasure,
  autoChart,
  type BuilderState,
  chartProblem,
  emptyState,
  fieldKind,
  fromDefinition,
  moveItem,
  outputNames,
  removeItem,
  selectTable,
  suggestedName,
  toDefinition,
  updateItem,
} from '../src/self-serve/builder/builder-state.js'

const model: Model = {
  tables: [
    {
      name: 'main.orders',
      label: 'Orders',
      columns: [
        { name: 'amount', label: 'Amount', dataType: 'number' },
        { name: 'quantity', label: 'Quantity', dataType: 'integer' },
        { name: 'channel', label: 'Channel', dataType: 'string' },
        { name: 'created_at', label: 'Created at', dataType: 'datetime' },
        { name: 'shipped_on', label: 'Shipped on', dataType: 'date' },
        { name: 'is_gift', label: 'Gift', dataType: 'boolean' },
      ],
    },
    {
      name: 'main.customers',
      label: 'Customers',
      columns: [{ name: 'country', label: 'Country', dataType: 'string' }],
    },
  ],
  relationships: [],
}
const col = (name: string): ModelColumn => {
  const c = model.tables[0]?.columns.find((x) => x.name === name)
  if (!c) throw new Error(name)
  return c
}
const orders = () => emptyState('main.orders')

function definition(state: BuilderState): MetricDefinition {
  const r = toDefinition(state, model)
  if (!r.ok) throw new Error(JSON.stringify(r.problems))
  return r.metric
}

describe('field defaults', () => {
  it('classifies data types', () => {
    expect(['number', 'integer', 'decimal(10,2)', 'bigint'].map(fieldKind)).toEqual([
      'number',
      'number',
      'number',
      'number',
    ])
    expect(['date', 'datetime', 'timestamp with time zone'].map(fieldKind)).toEqual(['time', 'time', 'time'])
    expect(fieldKind('boolean')).toBe('boolean')
    expect(fieldKind('string')).toBe('text')
  })

  it('sums numeric fields and counts the others', () => {
    let s = addMeasure(orders(), col('amount'))
    s = addMeasure(s, col('channel'))
    s = addMeasure(s, null)
    expect(s.measures.map((m) => [m.column, m.aggregate])).toEqual([
      ['amount', 'sum'],
      ['channel', 'count'],
      [null, 'count'],
    ])
    expect(new Set(s.measures.map((m) => m.key)).size).toBe(3)
  })

  it('gives date and datetime dimensions a time grain, others none', () => {
    let s = addDimension(orders(), col('created_at'))
    s = addDimension(s, col('shipped_on'))
    s = addDimension(s, col('channel'))
    expect(s.dimensions.map((d) => d.timeGrain)).toEqual(['day', 'month', undefined])
  })

  it('picks an operator by type', () => {
    let s = addFilter(orders(), col('channel'))
    s = addFilter(s, col('amount'))
    s = addFilter(s, col('is_gift'))
    expect(s.filters.map((f) => [f.operator, f.value])).toEqual([
      ['in', ''],
      ['gte', ''],
      ['eq', 'true'],
    ])
  })
})

describe('the chart', () => {
  it('suggests a number, a line over time, bars over categories, a table otherwise', () => {
    const one = addMeasure(orders(), col('amount'))
    expect(autoChart(one)).toBe('single-value')
    expect(autoChart(addMeasure(one, null))).toBe('table')
    expect(autoChart(addDimension(one, col('created_at')))).toBe('line')
    expect(autoChart(addDimension(one, col('channel')))).toBe('bar')
    expect(autoChart(addDimension(addDimension(one, col('channel')), col('created_at')))).toBe('table')
  })

  it('says why a chart cannot show the fields', () => {
    const s = addMeasure(addMeasure(addDimension(orders(), col('channel')), col('amount')), null)
    expect(chartProblem('pie', s)).toMatch(/one dimension and one measure/)
    expect(chartProblem('single-value', s)).toMatch(/exactly one measure/)
    expect(chartProblem('bar', s)).toBeNull()
    expect(chartProblem('table', s)).toBeNull()
    expect(chartProblem('line', addMeasure(orders(), null))).toMatch(/needs one dimension/)
  })
})

describe('toDefinition', () => {
  it('writes a bar chart of total amount by channel, largest first', () => {
    const s = addMeasure(addDimension(orders(), col('channel')), col('amount'))
    expect(definition(s)).toEqual({
      name: 'Total Amount by Channel',
      chart: { type: 'bar', x: 'channel', y: ['sum_amount'] },
      query: {
        from: 'main.orders',
        measures: [{ name: 'sum_amount', aggregate: 'sum', column: 'amount' }],
        dimensions: [{ name: 'channel', column: 'channel' }],
        orderBy: [{ name: 'sum_amount', direction: 'desc' }],
      },
    })
  })

  it('orders time ascending, keeps a chosen chart, sort, limit and name', () => {
    let s = addMeasure(addDimension(orders(), col('created_at')), null)
    expect(definition(s).query.orderBy).toEqual([{ name: 'created_at_day', direction: 'asc' }])
    expect(definition(s).chart).toEqual({ type: 'line', x: 'created_at_day', y: ['count'] })
    s = { ...s, chart: 'area', sort: { name: 'count', direction: 'desc' }, limit: '10', name: '  Busy days ' }
    const d = definition(s)
    expect(d.name).toBe('Busy days')
    expect(d.chart.type).toBe('area')
    expect(d.query.orderBy).toEqual([{ name: 'count', direction: 'desc' }])
    expect(d.query.limit).toBe(10)
  })

  it('converts filter values by type: lists, numbers, booleans, between', () => {
    let s = addMeasure(orders(), null)
    s = addFilter(s, col('channel'))
    s = addFilter(s, col('amount'))
    s = addFilter(s, col('is_gift'))
    s = addFilter(s, col('created_at'))
    const [f1, f2, f3, f4] = s.filters.map((f) => f.key) as [number, number, number, number]
    s = updateItem(s, 'filters', f1, { value: 'Web, Store ,' })
    s = updateItem(s, 'filters', f2, { operator: 'between', value: '10', value2: '99.5' })
    s = updateItem(s, 'filters', f3, { value: 'false' })
    s = updateItem(s, 'filters', f4, { operator: 'is-null' })
    expect(definition(s).query.where).toEqual([
      { column: 'channel', operator: 'in', values: ['Web', 'Store'] },
      { column: 'amount', operator: 'between', values: [10, 99.5] },
      { column: 'is_gift', operator: 'eq', values: [false] },
      { column: 'created_at', operator: 'is-null' },
    ])
  })

  it('names what is missing or wrong', () => {
    expect(toDefinition(emptyState(), model)).toEqual({
      ok: false,
      problems: [{ where: 'table', message: 'Pick a table.' }],
    })
    expect(toDefinition(orders(), model)).toMatchObject({ ok: false, problems: [{ where: 'fields' }] })
    let s = addFilter(addMeasure(orders(), col('amount')), col('amount'))
    const key = s.filters[0]?.key ?? 0
    s = updateItem(s, 'filters', key, { value: 'ten' })
    s = { ...s, limit: '0', chart: 'pie' }
    const r = toDefinition(s, model)
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.problems.map((p) => p.where)).toEqual(['chart', `filter-${key}`, 'limit'])
      expect(r.problems[1]?.message).toBe('Enter a number.')
    }
  })

  it('keeps output names unique and within 63 characters', () => {
    let s = addMeasure(addMeasure(orders(), col('amount')), col('amount'))
    s = addDimension(addDimension(s, col('channel')), col('channel'))
    expect(outputNames(s).map((o) => o.name)).toEqual(['channel', 'channel_2', 'sum_amount', 'sum_amount_2'])
    const long = { ...orders(), measures: [{ key: 1, column: 'x'.repeat(80), aggregate: 'count-distinct' as const }] }
    const [name] = outputNames(long)
    expect(name?.name.length).toBe(63)
    expect(name?.name.startsWith('count_distinct_x')).toBe(true)
  })

  it('suggests a name from the fields', () => {
    let s = addMeasure(orders(), col('amount'))
    s = addMeasure(s, null)
    s = addDimension(s, col('created_at'))
    expect(suggestedName(model, s)).toBe('Total Amount, Number of rows by Created at (day)')
  })
})

describe('editing the state', () => {
  it('removes an item and drops a sort on it', () => {
    let s = addMeasure(addDimension(orders(), col('channel')), col('amount'))
    s = { ...s, sort: { name: 'sum_amount', direction: 'asc' } }
    s = removeItem(s, 'measures', s.measures[0]?.key ?? 0)
    expect(s.measures).toEqual([])
    expect(s.sort).toBeNull()
  })

  it('moves an item, and a new table clears the fields', () => {
    let s = addMeasure(addMeasure(orders(), col('amount')), null)
    const second = s.measures[1]?.key ?? 0
    s = moveItem(s, 'measures', second, -1)
    expect(s.measures.map((m) => m.column)).toEqual([null, 'amount'])
    expect(moveItem(s, 'measures', second, -1)).toBe(s)
    const other = selectTable({ ...s, name: 'Mine' }, 'main.customers')
    expect(other.measures).toEqual([])
    expect(other.name).toBe('Mine')
  })
})

describe('fromDefinition', () => {
  it('round-trips a definition, keeping its names and formats', () => {
    const def: MetricDefinition = {
      name: 'Revenue by month',
      chart: { type: 'line', x: 'month', y: ['revenue'] },
      query: {
        from: 'main.orders',
        measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
        dimensions: [{ name: 'month', column: 'created_at', timeGrain: 'month' }],
        where: [
          { column: 'channel', operator: 'in', values: ['Web', 'Store'] },
          { column: 'amount', operator: 'between', values: [1, 5] },
        ],
        orderBy: [{ name: 'month', direction: 'asc' }],
        limit: 24,
      },
      formats: { revenue: { style: 'currency', currency: 'USD' }, gone: { style: 'percent' } },
    }
    const s = fromDefinition(def, model)
    expect(s.filters.map((f) => [f.value, f.value2])).toEqual([
      ['Web, Store', ''],
      ['1', '5'],
    ])
    const back = definition(s)
    expect(back).toEqual({ ...def, formats: { revenue: { style: 'currency', currency: 'USD' } } })
  })
})
