import { describe, expect, it } from 'vitest'
import { tablesOf } from './introspection.js'

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
