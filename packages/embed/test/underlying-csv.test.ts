import { describe, expect, it } from 'vitest'
import { rowsToCsv } from '../src/self-serve/underlying/underlying-csv.js'

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
