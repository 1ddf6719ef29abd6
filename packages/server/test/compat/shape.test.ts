import { describe, expect, it } from 'vitest'
import { fill, shapeMismatches } from './shape.js'

describe('matching an answer to a published example', () => {
  it('takes an answer with every named field of the same kind, and more fields', () => {
    const answer = {
      id: 'emb_1',
      error: null,
      extra: 1,
      data: [
        { a: 1, b: 'x' },
        { a: 2, c: true },
      ],
    }
    expect(shapeMismatches(answer, { id: 'string', error: null, data: [{ a: 0, c: false }] })).toEqual([])
  })

  it('names each field that is missing, of another kind, or not the exact value', () => {
    const answer = { id: 'emb_1', error: { code: 'X' }, data: [{ a: '1' }], name: 'Other' }
    expect(shapeMismatches(answer, { id: 1, error: null, data: [{ a: 0 }], name: '=Sales', token: 'string' })).toEqual([
      '$.id: expected a number, got string',
      '$.error: expected null, got object',
      '$.data[0]: no item of the answer matches {"a":0}',
      '$.name: expected Sales, got "Other"',
      '$.token: missing',
    ])
    expect(shapeMismatches([], { data: [] })).toEqual(['$: expected an object, got an array'])
    expect(shapeMismatches({ data: {} }, { data: [] })).toEqual(['$.data: expected an array, got object'])
  })

  it('fills placeholders in strings, and puts a whole value where a string is only its placeholder', () => {
    const context = { embedId: 'emb_1', doc: { layout: [] } }
    expect(fill({ url: '/x?embedId={{embedId}}', body: { data: '{{doc}}', id: '={{embedId}}' } }, context)).toEqual({
      url: '/x?embedId=emb_1',
      body: { data: { layout: [] }, id: '=emb_1' },
    })
    expect(() => fill('{{nope}}', context)).toThrow(/nope/)
  })
})
