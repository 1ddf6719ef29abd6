import { describe, expect, it } from 'vitest'
import { columnsListing, doubleQuoted, tablesOf, tablesOfListing } from './introspection.js'

const row = (schema: string, table: string, name: string) => ({ schema, table, name })
const read = (r: ReturnType<typeof row>) => ({
  schema: r.schema,
  table: r.table,
  column: { name: r.name, nativeType: 'int', dataType: 'integer' as const, nullable: true },
})

describe('tablesOf', () => {
  it('groups columns by schema and table, in the order first seen, columns in row order', () => {
    const tables = tablesOf([row('a', 't', 'x'), row('a', 't', 'y'), row('b', 't', 'z'), row('a', 'u', 'w')], read)
    expect(tables.map((t) => [t.schema, t.name, t.columns.map((c) => c.name)])).toEqual([
      ['a', 't', ['x', 'y']],
      ['b', 't', ['z']],
      ['a', 'u', ['w']],
    ])
  })

  it('keeps apart names that would collide when joined with a separator', () => {
    const tables = tablesOf([row('a.b', 'c', 'x'), row('a', 'b.c', 'y')], read)
    expect(tables).toHaveLength(2)
  })

  it('no rows: no tables', () => {
    expect(tablesOf([], read)).toEqual([])
  })
})

describe('columnsListing', () => {
  const dollar = (i: number) => `$${i + 1}`

  it('binds every value, in the engine placeholders, in order: catalog, then schema', () => {
    const { sql, params } = columnsListing({
      placeholder: dollar,
      quote: doubleQuoted,
      catalog: { equals: "cat'; drop table x --" },
      schema: { notIn: ['information_schema', 'pg_catalog'] },
    })
    expect(params).toEqual(["cat'; drop table x --", 'information_schema', 'pg_catalog'])
    expect(sql).toContain('WHERE TABLE_CATALOG = $1 AND TABLE_SCHEMA NOT IN ($2, $3)')
    expect(sql).not.toContain('drop table')
  })

  it("the session's own catalog and schema by a fixed function, nothing bound", () => {
    const { sql, params } = columnsListing({
      placeholder: () => '?',
      quote: (a) => `\`${a}\``,
      catalog: { current: 'CURRENT_CATALOG()' },
      schema: { current: 'CURRENT_SCHEMA()' },
    })
    expect(params).toEqual([])
    expect(sql).toContain('WHERE TABLE_CATALOG = CURRENT_CATALOG() AND TABLE_SCHEMA = CURRENT_SCHEMA()')
    expect(sql).toContain('TABLE_SCHEMA AS `table_schema`')
  })

  it('no scope: every schema; the five standard columns and the extra ones aliased in the engine quoting', () => {
    const { sql } = columnsListing({ placeholder: dollar, quote: (a) => `[${a}]`, extraColumns: ['udt_name'] })
    expect(sql).toBe(
      'SELECT TABLE_SCHEMA AS [table_schema], TABLE_NAME AS [table_name], COLUMN_NAME AS [column_name], ' +
        'DATA_TYPE AS [data_type], IS_NULLABLE AS [is_nullable], UDT_NAME AS [udt_name] ' +
        'FROM INFORMATION_SCHEMA.COLUMNS ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION',
    )
  })
})

describe('tablesOfListing', () => {
  const listed = (table: string, column: string, dataType: string, isNullable: string, extra = {}) => ({
    table_schema: 's',
    table_name: table,
    column_name: column,
    data_type: dataType,
    is_nullable: isNullable,
    ...extra,
  })

  it("reads each row through the engine's mapping; nullable unless is_nullable says NO", () => {
    const tables = tablesOfListing(
      [
        listed('t', 'a', 'integer', 'NO'),
        listed('t', 'b', 'text', 'YES'),
        listed('u', 'c', 'ARRAY', 'yes', { udt_name: '_int4' }),
      ],
      {
        nativeType: (row) => (row.data_type === 'ARRAY' ? String(row.udt_name) : String(row.data_type)),
        dataType: (nativeType) => (nativeType === 'integer' ? 'integer' : 'string'),
      },
    )
    expect(tables).toEqual([
      {
        schema: 's',
        name: 't',
        columns: [
          { name: 'a', nativeType: 'integer', dataType: 'integer', nullable: false },
          { name: 'b', nativeType: 'text', dataType: 'string', nullable: true },
        ],
      },
      { schema: 's', name: 'u', columns: [{ name: 'c', nativeType: '_int4', dataType: 'string', nullable: true }] },
    ])
  })

  it("an engine's own nullability rule replaces the default", () => {
    const [table] = tablesOfListing([listed('t', 'a', 'integer', 'YES')], {
      dataType: () => 'integer',
      nullable: () => false,
    })
    expect(table?.columns[0]?.nullable).toBe(false)
  })
})
