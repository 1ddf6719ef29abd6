import { describe, expect, it } from 'vitest'
import { DATAMART, TABLES } from '../../../test/fixtures/query.js'
import { ApiError } from '../../errors.js'
import { buildModel } from '../../query/model.js'
import type { Embed } from '../embeds/embeds.js'
import type { Source } from '../query/sources.js'
import { visibleModel } from '../self-serve/visible-model.js'
import { checkDrill, drillColumns, drillTables } from './drill.js'

/** The fixture's datamart with `orders.note` hidden: client_id is the tenant column of orders and customers. */
const hidden = buildModel(TABLES, {
  ...DATAMART,
  tableList: DATAMART.tableList.map((t) =>
    t.name === 'orders' ? { ...t, columns: [...(t.columns ?? []), { name: 'amount', isHide: true }] } : t,
  ),
})
const source = { model: hidden, datasource: {}, datamart: undefined } as unknown as Source
const embed = { accessSettings: {} } as unknown as Embed
const visible = visibleModel(source, embed)

const refusal = (drill: Parameters<typeof checkDrill>[0]): string => {
  try {
    checkDrill(drill, visible)
  } catch (e) {
    if (e instanceof ApiError) return `${e.status} ${e.message}`
    throw e
  }
  return 'accepted'
}

describe('drill inputs are checked against the visible model', () => {
  it('takes a visible column by table name or key, with its canonical table', () => {
    const out = checkDrill({ filters: [{ table: 'orders', column: 'id', value: 7 }] }, visible)
    expect(out.drill).toEqual([{ table: 'public.orders', column: 'id', value: 7 }])
  })

  it('answers a tenant column, a hidden column and a missing one alike', () => {
    const tenant = refusal({ filters: [{ table: 'orders', column: 'client_id', value: 'globex' }] })
    const hiddenColumn = refusal({ filters: [{ table: 'orders', column: 'amount', value: 1 }] })
    const missing = refusal({ filters: [{ table: 'orders', column: 'nope', value: 1 }] })
    expect(tenant).toMatch(/^400 /)
    expect(tenant.replace('client_id', 'X')).toBe(missing.replace('nope', 'X'))
    expect(hiddenColumn.replace('amount', 'X')).toBe(missing.replace('nope', 'X'))
  })

  it('takes a range on a date column only, and a plain value elsewhere', () => {
    const range = { startDate: '2026-01-01', endDate: '2026-01-31' }
    expect(refusal({ filters: [{ table: 'orders', column: 'created_at', value: range }] })).toBe('accepted')
    expect(refusal({ filters: [{ table: 'orders', column: 'created_at', value: '2026-01-01' }] })).toMatch(/^400 /)
    expect(refusal({ filters: [{ table: 'orders', column: 'id', value: range }] })).toMatch(/^400 /)
    expect(
      refusal({
        filters: [{ table: 'orders', column: 'created_at', value: { startDate: '2026-02-01', endDate: '2026-01-01' } }],
      }),
    ).toMatch(/^400 .*after/)
  })

  it('names no tenant or hidden column in the load', () => {
    const columns = drillColumns(
      {
        metricId: 'm',
        name: 'm',
        chart: { type: 'table' },
        query: {
          from: 'public.orders',
          dimensions: [
            { name: 'id', column: 'id' },
            { name: 'tenant', column: 'client_id' },
            { name: 'amount', column: 'amount' },
          ],
        },
      },
      visible,
      () => true,
    )
    expect(columns).toEqual({ id: { table: 'public.orders', column: 'id' } })
  })

  it('names no column the token may not filter (a drill on it would be refused)', () => {
    const metric = {
      metricId: 'm',
      name: 'm',
      chart: { type: 'table' as const },
      query: { from: 'public.orders', dimensions: [{ name: 'id', column: 'id' }] },
    }
    expect(drillColumns(metric, visible, (_table, column) => column !== 'id')).toBeUndefined()
    expect(drillColumns(metric, visible, (table) => table === 'public.orders')).toEqual({
      id: { table: 'public.orders', column: 'id' },
    })
  })

  it('lists the visible tables a drill chip narrows a metric by: its own and those it reaches; none for SQL', () => {
    const query = { metricId: 'q', name: 'q', chart: { type: 'table' as const }, query: { from: 'public.orders' } }
    const tables = drillTables(query, visible, hidden)
    expect(tables).toContain('public.orders')
    expect(tables).toContain('public.customers')
    // no relationship from orders to the audit table: a chip on it does not filter this metric
    expect(tables).not.toContain('public.audit')
    const sql = { metricId: 's', name: 's', chart: { type: 'table' as const }, sql: 'select 1 as x' }
    expect(drillTables(sql, visible, hidden)).toEqual([])
  })
})
