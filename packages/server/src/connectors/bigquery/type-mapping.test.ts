import { describe, expect, it } from 'vitest'
import { convertRow, dataTypeOf } from './type-mapping.js'

describe('BigQuery values → JSON-safe values (raw REST cells)', () => {
  it('maps column types, REPEATED fields as json', () => {
    expect(
      ['INT64', 'INTEGER', 'NUMERIC', 'BIGNUMERIC', 'FLOAT64', 'BOOL', 'DATE', 'DATETIME', 'TIMESTAMP'].map((t) =>
        dataTypeOf(t),
      ),
    ).toEqual(['integer', 'integer', 'number', 'number', 'number', 'boolean', 'date', 'datetime', 'datetime'])
    expect([
      dataTypeOf('JSON'),
      dataTypeOf('RECORD'),
      dataTypeOf('STRING', 'REPEATED'),
      dataTypeOf('GEOGRAPHY'),
    ]).toEqual(['json', 'json', 'json', 'string'])
  })

  it('converts STRUCT, ARRAY, JSON, non-finite FLOAT64 and both TIMESTAMP encodings', () => {
    const fields = [
      {
        name: 'rec',
        type: 'RECORD',
        fields: [
          { name: 'n', type: 'INTEGER' },
          { name: 'd', type: 'DATE' },
        ],
      },
      { name: 'tags', type: 'STRING', mode: 'REPEATED' },
      { name: 'doc', type: 'JSON' },
      { name: 'inf', type: 'FLOAT' },
      { name: 'us', type: 'TIMESTAMP' },
      { name: 'secs', type: 'TIMESTAMP' },
      { name: 'big', type: 'BIGNUMERIC' },
    ]
    const row = {
      f: [
        { v: { f: [{ v: '18446744073709551615' }, { v: '2024-01-31' }] } },
        { v: [{ v: 'a' }, { v: 'b' }] },
        { v: '{"k":[1,2]}' },
        { v: 'Infinity' },
        { v: '1704067200123456' },
        { v: '1.7040672E9' },
        { v: '12.5' },
      ],
    }
    expect(convertRow(row, fields, 'Europe/Paris')).toEqual({
      rec: { n: '18446744073709551615', d: '2024-01-31' },
      tags: ['a', 'b'],
      doc: { k: [1, 2] },
      inf: 'Infinity',
      us: '2024-01-01T01:00:00.123456+01:00',
      secs: '2024-01-01T01:00:00+01:00',
      big: 12.5,
    })
  })
})
