import { describe, expect, it } from 'vitest'
import { DATAMART, model, TABLES } from '../../test/fixtures/query.js'
import { planJoins } from './joins.js'
import { buildModel, resolveColumn, resolveTable } from './model.js'

describe('buildModel', () => {
  it('keeps only datamart tables, overlaid with client columns, custom columns and flags', () => {
    const m = model()
    expect([...m.tables.keys()]).toEqual([
      'public.orders',
      'public.customers',
      'public.countries',
      'public.tenants',
      'public.audit',
    ])
    const orders = m.tables.get('public.orders')!
    expect(orders.clientColumn).toBe('client_id')
    expect(orders.columns.get('amount_with_tax')).toMatchObject({ sql: 'amount * 1.2', dataType: 'number' })
    expect(orders.columns.get('created_at')?.isTimezoneConversion).toBe(true)
    expect(m.relationships[1]).toMatchObject({
      parentTable: 'public.countries',
      childTable: 'public.customers',
      joinType: 'INNER',
    })
  })
  it('without a datamart, every introspected table and no relationships', () => {
    expect(buildModel(TABLES).tables.size).toBe(6)
  })
  it.each([
    [{ tableList: [{ schemaName: 'public', name: 'nope' }] }, 'tableList[0]: no table public.nope in the datasource'],
    [
      { tableList: [{ schemaName: 'public', name: 'orders', clientColumn: 'tenant' }] },
      'tableList[0].clientColumn: no column "tenant" in public.orders',
    ],
    [
      { tableList: [{ schemaName: 'public', name: 'orders', columns: [{ name: 'x' }] }] },
      'tableList[0].columns[0].name: no column "x"',
    ],
    [
      {
        tableList: [
          { schemaName: 'public', name: 'orders', columns: [{ name: 'id', isCustomColumn: true, sql: '1' }] },
        ],
      },
      'already has a column "id"',
    ],
    [
      { tableList: [{ schemaName: 'public', name: 'orders', columns: [{ name: 'y', isCustomColumn: true }] }] },
      'a custom column needs sql',
    ],
    [
      {
        ...DATAMART,
        relationships: [{ parentTable: 'orders', parentColumn: 'nope', childTable: 'customers', childColumn: 'id' }],
      },
      'relationships[0].parentColumn: no column "nope"',
    ],
  ])('%#: refuses a bad datamart naming the path', (dm, message) => {
    expect(() => buildModel(TABLES, dm as never)).toThrow(message)
  })
})

describe('resolveTable / resolveColumn', () => {
  const m = buildModel(TABLES)
  it('accepts schema.table, a unique bare name, or a unique case-insensitive match', () => {
    expect(resolveTable(m, 'public.orders').key).toBe('public.orders')
    expect(resolveTable(m, 'orders').key).toBe('public.orders')
    expect(resolveTable(m, 'PUBLIC.Orders').key).toBe('public.orders')
  })
  it('refuses ambiguous and unknown names with a 400 naming the path', () => {
    expect(() => resolveTable(m, 'audit', 'x.from')).toThrow(
      'x.from: table "audit" is ambiguous (public.audit, archive.audit)',
    )
    expect(() => resolveTable(m, 'nope', 'x.from')).toThrow('x.from: no table "nope"')
    expect(() => resolveColumn(m.tables.get('public.orders')!, 'nope', 'x.column')).toThrow(
      'x.column: no column "nope" in public.orders',
    )
  })
})

describe('a table without a schema (an Elasticsearch index)', () => {
  const column = (name: string) => ({ name, dataType: 'string' as const, nativeType: 'keyword', nullable: true })
  const index = { schema: '', name: 'orders', columns: [column('client_id'), column('status')] }
  const logs = { schema: '', name: 'logs.2026', columns: [column('client_id')] }
  it('is keyed by its bare name, in a datamart too, with its client column', () => {
    const m = buildModel([index, logs], {
      tableList: [
        { schemaName: '', name: 'orders', clientColumn: 'client_id' },
        { schemaName: '', name: 'logs.2026' },
      ],
      relationships: [
        { parentTable: 'orders', parentColumn: 'client_id', childTable: 'logs.2026', childColumn: 'client_id' },
      ],
    })
    expect([...m.tables.keys()]).toEqual(['orders', 'logs.2026'])
    expect(m.tables.get('orders')?.clientColumn).toBe('client_id')
    expect(m.relationships[0]).toMatchObject({ parentTable: 'orders', childTable: 'logs.2026' })
  })
  it('resolves as `table`, a dotted index name whole, and `.table` as documents wrote it before', () => {
    const m = buildModel([index, logs])
    expect(resolveTable(m, 'orders').key).toBe('orders')
    expect(resolveTable(m, 'logs.2026').key).toBe('logs.2026')
    expect(resolveTable(m, '.orders').key).toBe('orders')
    expect(() => resolveTable(m, 'x.orders', 'from')).toThrow('from: no table "x.orders"')
  })
  it('a datamart naming a schema it does not have is a 400', () => {
    expect(() => buildModel([index], { tableList: [{ schemaName: 'public', name: 'orders' }] })).toThrow(
      'tableList[0]: no table public.orders in the datasource',
    )
  })
})

describe('planJoins', () => {
  it('flips an explicit LEFT JOIN when walking from child to parent, defaults to LEFT otherwise', () => {
    const m = buildModel(TABLES, {
      tableList: DATAMART.tableList,
      relationships: [
        {
          parentTable: 'customers',
          parentColumn: 'id',
          childTable: 'orders',
          childColumn: 'customer_id',
          joinType: 'LEFT JOIN',
        },
      ],
    })
    const plan = planJoins(m, 'public.orders', ['public.customers'])
    expect(plan).toEqual({
      ok: true,
      steps: [
        { table: 'public.customers', onto: 'public.orders', ontoColumn: 'customer_id', column: 'id', type: 'RIGHT' },
      ],
    })
    expect(planJoins(m, 'public.orders', ['public.audit'])).toEqual({ ok: false, unreachable: 'public.audit' })
  })
})
