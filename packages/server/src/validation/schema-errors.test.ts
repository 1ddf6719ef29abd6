import Fastify from 'fastify'
import { Type } from 'typebox'
import { Value } from 'typebox/value'
import { afterAll, describe, expect, it } from 'vitest'
import { describeProblems, missingFields } from './fields.js'
import { AJV_OPTIONS, type SchemaError, schemaProblems, withAjvContext, withContext } from './schema-errors.js'

describe('schemaProblems reads ajv and TypeBox the same way', () => {
  const Settings = Type.Object(
    {
      mode: Type.Union([Type.Literal('DRAG_DROP'), Type.Literal('CHAT')]),
      level: Type.Optional(Type.Enum(['TABLE', 'DATABASE'])),
      note: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      isAllowA: Type.Boolean(),
      isAllowB: Type.Boolean(),
      items: Type.Optional(Type.Array(Type.String({ maxLength: 3 }))),
    },
    { additionalProperties: false },
  )
  const Body = Type.Object(
    { clientId: Type.String(), settings: Type.Optional(Settings) },
    { additionalProperties: false },
  )
  // ajv as the app runs it (first failure only, verbose), on a route of a bare Fastify
  const app = Fastify({ ajv: { customOptions: { ...AJV_OPTIONS } } })
  app.post('/', { schema: { body: Body }, attachValidation: true }, async (request) => ({
    errors: request.validationError?.validation,
    value: request.body,
  }))
  app.get('/', { schema: { querystring: Body }, attachValidation: true }, async (request) => ({
    errors: request.validationError?.validation,
    value: request.query,
  }))
  afterAll(() => app.close())
  const ajvErrors = async (value: unknown, method: 'GET' | 'POST' = 'POST'): Promise<SchemaError[]> => {
    const res = await app.inject(
      method === 'POST' ? { method, url: '/', payload: value as object } : { method, url: `/?${value}` },
    )
    // without ajv's verbose, the error handler completes them from the schema and the value
    const { errors, value: checked } = res.json()
    expect(errors[0]).not.toHaveProperty('parentSchema')
    return withAjvContext(errors, Body, checked)
  }
  const byAjv = async (value: unknown) => schemaProblems(await ajvErrors(value), 'body')
  const byTypeBox = (value: unknown) => schemaProblems(withContext(Value.Errors(Body, value), Body, value), 'body')
  const ok = { mode: 'CHAT', isAllowA: true, isAllowB: false }

  it.each([
    [
      'undeclared fields, all of one object, with the close declared name',
      { clientID: 'x', colour: 1 },
      [
        { in: 'body', path: 'clientID', problem: 'is not an allowed field', suggestion: 'clientId' },
        { in: 'body', path: 'colour', problem: 'is not an allowed field' },
        { in: 'body', path: 'clientId', problem: 'is required' },
      ],
    ],
    [
      'every missing required field of the object',
      { clientId: 'x', settings: {} },
      missingFields('settings', ['mode', 'isAllowA', 'isAllowB']),
    ],
    [
      'a union of literals lists its values',
      { clientId: 'x', settings: { ...ok, mode: 'SQL' } },
      [
        {
          in: 'body',
          path: 'settings.mode',
          problem: 'must be one of: DRAG_DROP, CHAT',
          allowedValues: ['DRAG_DROP', 'CHAT'],
        },
      ],
    ],
    [
      'an enum lists its values',
      { clientId: 'x', settings: { ...ok, level: 'ROW' } },
      [
        {
          in: 'body',
          path: 'settings.level',
          problem: 'must be one of: TABLE, DATABASE',
          allowedValues: ['TABLE', 'DATABASE'],
        },
      ],
    ],
    [
      'a union of types',
      { clientId: 'x', settings: { ...ok, note: 5 } },
      [{ in: 'body', path: 'settings.note', problem: 'must be a string or null' }],
    ],
    [
      'an array item, by its index',
      { clientId: 'x', settings: { ...ok, items: ['ab', 'abcd'] } },
      [{ in: 'body', path: 'settings.items[1]', problem: 'must be at most 3 characters long' }],
    ],
    ['a wrong type', { clientId: 5 }, [{ in: 'body', path: 'clientId', problem: 'must be a string' }]],
    ['not an object at all', [1], [{ in: 'body', path: '', problem: 'must be an object' }]],
  ])('%s', async (_, value, expected) => {
    expect(await byAjv(value)).toEqual(expected)
    expect(byTypeBox(value)).toEqual(expected)
  })

  it('does not suggest a declared name the object already has', async () => {
    const problems = await byAjv({ clientId: 'x', clientID: 'y' })
    expect(problems).toEqual([{ in: 'body', path: 'clientID', problem: 'is not an allowed field' }])
  })

  it('names at most 20 undeclared fields of a huge object, each name shortened', async () => {
    const value = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`${'k'.repeat(100)}${i}`, 1]))
    const problems = await byAjv({ clientId: 'x', ...value })
    expect(problems).toHaveLength(20)
    expect(problems[0]?.path).toBe(`["${'k'.repeat(64)}…"]`)
  })

  it('reports where the part of the request is', async () => {
    expect(schemaProblems(await ajvErrors('clientID=x', 'GET'), 'query')).toEqual([
      { in: 'query', path: 'clientID', problem: 'is not an allowed field', suggestion: 'clientId' },
      { in: 'query', path: 'clientId', problem: 'is required' },
    ])
    expect(describeProblems([{ in: 'query', path: 'clientID', problem: 'is not an allowed field' }])).toBe(
      'query string "clientID" is not an allowed field',
    )
  })
})

// Regression (issue 24, item 11): `expiryTime: 60` (seconds meant) was a 60 ms token; the
// refusal now says the unit, from the schema's `x-unit`, with either validator.
describe('a number with a unit', () => {
  const Body = Type.Object(
    {
      expiryTime: Type.Integer({ minimum: 1000, 'x-unit': 'milliseconds' }),
      size: Type.Integer({ maximum: 9, 'x-unit': 'bytes' }),
    },
    { additionalProperties: false },
  )
  const app = Fastify({
    ajv: { customOptions: { ...AJV_OPTIONS }, plugins: [(ajv) => ajv.addKeyword({ keyword: 'x-unit' })] },
  })
  app.post('/', { schema: { body: Body }, attachValidation: true }, async (request) => ({
    errors: request.validationError?.validation,
  }))
  afterAll(() => app.close())

  it.each([
    [{ expiryTime: 60, size: 1 }, 'expiryTime', 'must be at least 1000: it is in milliseconds, so 60 is 0.06 s'],
    [{ expiryTime: 1000, size: 10 }, 'size', 'must be at most 9 bytes'],
  ])('%j is refused naming its unit', async (value, path, problem) => {
    const { errors } = (await app.inject({ method: 'POST', url: '/', payload: value })).json()
    expect(schemaProblems(withAjvContext(errors, Body, value), 'body')).toEqual([{ in: 'body', path, problem }])
    expect(schemaProblems(withContext(Value.Errors(Body, value), Body, value), 'body')).toEqual([
      { in: 'body', path, problem },
    ])
  })
})
