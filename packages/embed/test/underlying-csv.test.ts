import { describe, expect, it } from 'vitest'
import { rowsToCsv, sortRows } from '../src/self-serve/underlying/underlying-csv.js'

describe('the underlying rows as CSV', () => {
  it('quotes what needs it, leaves empty values empty and keeps formulas text', () => {
    const csv = rowsToCsv(
      ['id', 'name', 'note'],
      [
        { id: 1, name: 'Acme, Inc.', note: 'say "hi"' },
        { id: 2, name: null, note: '=HYPERLINK("x")' },
        { id: 3, name: 'two\nlines', note: -4.5 },
      ],
    )
    expect(csv.split('\r\n')).toEqual([
      'id,name,note',
      '1,"Acme, Inc.","say ""hi"""',
      `2,,"'=HYPERLINK(""x"")"`,
      '3,"two\nlines",-4.5',
    ])
  })
})

describe('sorting a page of rows', () => {
  const rows = [{ v: 10 }, { v: null }, { v: 2 }, { v: 33 }]
  it('sorts numbers as numbers, nulls last, either way, without changing the input', () => {
    expect(sortRows(rows, 'v', 'ascending').map((r) => r.v)).toEqual([2, 10, 33, null])
    expect(sortRows(rows, 'v', 'descending').map((r) => r.v)).toEqual([33, 10, 2, null])
    expect(rows.map((r) => r.v)).toEqual([10, null, 2, 33])
  })
  it('sorts numeric text (decimals as the warehouse sends them) by value', () => {
    const text = [{ a: '120.50' }, { a: '80' }, { a: '9.99' }]
    expect(sortRows(text, 'a', 'ascending').map((r) => r.a)).toEqual(['9.99', '80', '120.50'])
  })
})
