import { describe, expect, it } from 'vitest'
import { describeProblems, type FieldProblem, fieldLabel, fieldPath, missingFields } from './fields.js'
import { closestName, editDistance } from './names.js'

describe('field paths', () => {
  it('turns a JSON Pointer into a dotted path with bracketed indexes, under an optional root', () => {
    expect(fieldPath('/params/allowedEmbeds/0')).toBe('params.allowedEmbeds[0]')
    expect(fieldPath('/joinModel', 'accessSettings')).toBe('accessSettings.joinModel')
    expect(fieldPath('/tableTenancySettings/2/name', 'accessSettings')).toBe(
      'accessSettings.tableTenancySettings[2].name',
    )
    expect(fieldPath('', 'accessSettings')).toBe('accessSettings')
    expect(fieldPath('')).toBe('')
    // escaped pointer characters, and keys that are not plain names
    expect(fieldPath('/a~1b/c~0d')).toBe('["a/b"]["c~d"]')
    expect(fieldPath('/x/with.dot')).toBe('x["with.dot"]')
  })

  it('names a field by where it is in the request', () => {
    expect(fieldLabel('body', 'accessSettings.joinModel')).toBe('accessSettings.joinModel')
    expect(fieldLabel('body', '')).toBe('the body')
    expect(fieldLabel('query', 'pageNumber')).toBe('query string "pageNumber"')
    expect(fieldLabel('path', 'embedId')).toBe(':embedId')
    expect(fieldLabel('header', 'x-name')).toBe('header "x-name"')
  })
})

describe('suggestions', () => {
  it('measures the edit distance case-insensitively, a swap of neighbours counting 1', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3)
    expect(editDistance('hots', 'host')).toBe(1)
    expect(editDistance('clientID', 'clientId')).toBe(0)
    expect(editDistance('', 'abc')).toBe(3)
  })

  it('suggests the one close declared name, else nothing', () => {
    const declared = ['clientId', 'accessSettings', 'dashboardId', 'embedType', 'workspaceName']
    expect(closestName('clientID', declared)).toBe('clientId')
    expect(closestName('acessSettings', declared)).toBe('accessSettings')
    expect(closestName('workspacename', declared)).toBe('workspaceName')
    expect(closestName('embedtyp', declared)).toBe('embedType')
    expect(closestName('colour', declared)).toBeUndefined()
    expect(closestName('id', ['ia', 'ix'])).toBeUndefined() // two equally close: no guess
    expect(closestName('x'.repeat(500), ['x'])).toBeUndefined()
  })
})

describe('describeProblems', () => {
  it('names the missing fields of one object together, the rest one by one', () => {
    const problems: FieldProblem[] = [
      ...missingFields('accessSettings', ['a', 'b', 'c']),
      { in: 'body', path: 'name', problem: 'is not an allowed field', suggestion: 'Name' },
    ]
    expect(describeProblems(problems)).toBe(
      'accessSettings is missing required fields: a, b, c; name is not an allowed field (did you mean "Name"?)',
    )
    expect(describeProblems(missingFields('', ['email', 'password']))).toBe(
      'The body is missing required fields: email, password',
    )
    expect(describeProblems(missingFields('accessSettings', ['a']))).toBe('accessSettings.a is required')
  })

  it('keeps the message short: the rest is counted, details hold them', () => {
    const many = Array.from(
      { length: 50 },
      (_, i): FieldProblem => ({ in: 'body', path: `field${i}`, problem: 'is not an allowed field' }),
    )
    const message = describeProblems(many)
    expect(message.length).toBeLessThan(500)
    expect(message).toMatch(/^field0 is not an allowed field; field1 .*; and \d+ more \(see error\.details\.fields\)$/)
  })
})
