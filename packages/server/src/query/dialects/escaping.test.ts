import { describe, expect, it } from 'vitest'
import { ctx, metric } from '../../../test/fixtures/query.js'
import { compileMetric } from '../compile.js'
import { buildModel } from '../model.js'
import { BaseDialect } from './base.js'
import { clickhouseType } from './clickhouse.js'
import { dialects } from './registry.js'

/** Every key of a parsed JSON request. */
function keysOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out)
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k)
      keysOf(v, out)
    }
  }
  return out
}

const HOSTILE = [
  'plain',
  'a"b',
  'a`b',
  'a]b',
  'a[b',
  "a'b",
  'a\\b',
  'a\\"b',
  'a\\`b',
  'x"; DROP TABLE users; --',
  'x`; DROP TABLE users; --',
  'x]; DROP TABLE users; --',
  '""``]][[',
  'ümlaut ✓ 表',
  '/* c */ -- d',
]

/** Dialects that are not SQL: identifiers are JSON strings of one JSON request. */
const JSON_DIALECTS: ReadonlySet<string> = new Set(['elasticsearch', 'mongodb'])

/** Every string (keys included) of a parsed JSON value. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v)
  else if (Array.isArray(v)) for (const x of v) strings(x, out)
  else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push(k)
      strings(x, out)
    }
  }
  return out
}

/** Reads one quoted identifier back the way the engine's lexer would; returns [name, rest]. */
function lex(dialect: string, quoted: string): [string, string] {
  if (JSON_DIALECTS.has(dialect)) {
    // a JSON string token: up to the first quote not escaped by a backslash
    const end = /^"(?:[^"\\]|\\.)*"/.exec(quoted)?.[0]
    if (end === undefined) throw new Error(`unterminated identifier ${quoted}`)
    return [JSON.parse(end) as string, quoted.slice(end.length)]
  }
  const open = quoted[0]
  const close = open === '[' ? ']' : (open as string)
  let out = ''
  for (let i = 1; i < quoted.length; i++) {
    const ch = quoted[i] as string
    if ((dialect === 'clickhouse' || dialect === 'bigquery') && ch === '\\') {
      out += quoted[++i]
      continue
    }
    if (ch === close) {
      if (quoted[i + 1] === close) {
        out += close
        i++
        continue
      }
      return [out, quoted.slice(i + 1)]
    }
    out += ch
  }
  throw new Error(`unterminated identifier ${quoted}`)
}

describe.each([...dialects.entries()])('identifier escaping: %s', (name, dialect) => {
  it.each(HOSTILE)('quotes %j as exactly one identifier', (id) => {
    const quoted = dialect.quoteIdentifier(id)
    if (JSON_DIALECTS.has(name)) {
      expect(JSON.parse(quoted)).toBe(id) // one JSON string
      return
    }
    const [read, rest] = lex(name, quoted)
    expect(read).toBe(id)
    expect(rest).toBe('')
  })

  it('rejects NUL and empty identifiers with a 400', () => {
    expect(() => dialect.quoteIdentifier('a\u0000b')).toThrow(expect.objectContaining({ status: 400 }))
    expect(() => dialect.quoteIdentifier('')).toThrow(expect.objectContaining({ status: 400 }))
  })

  it('names a table without a schema (an index) by its name alone', () => {
    if (!(dialect instanceof BaseDialect)) return // mongodb: a collection is no SQL table name
    expect(dialect.tableName('', 'orders')).toBe(dialect.tableName(null, 'orders'))
    expect(dialect.tableName('', 'orders')).toBe(dialect.quoteIdentifier('orders'))
  })

  it('keeps hostile table, column and output names inside quotes in a compiled query', () => {
    for (const id of HOSTILE) {
      const model = buildModel([
        {
          schema: id,
          name: id,
          columns: [{ name: id, dataType: 'string', nativeType: 'text', nullable: true }],
        },
      ])
      const m = metric({
        from: `${id}.${id}`,
        measures: [{ name: `${id.slice(0, 40)}_n`, aggregate: 'count-distinct', column: id }],
        dimensions: [{ name: id.slice(0, 40), column: id }],
      })
      const { sql, params } = compileMetric({ metric: m, model, dialect, context: ctx() })
      if (JSON_DIALECTS.has(name)) {
        if (name === 'mongodb') {
          // Names are only string values (a collection, a `$field` path): every key is our own.
          for (const key of keysOf(JSON.parse(sql))) expect(key).toMatch(/^(\$[A-Za-z]+|[a-z_]+\d*)$/)
          expect(sql).toContain(JSON.stringify(`$${id}`))
        } else {
          // parses as one request, and a hostile name is only ever a whole string of it
          const names = new Set([id, id.slice(0, 40), `${id.slice(0, 40)}_n`])
          const hostile = strings(JSON.parse(sql)).filter((x) => /DROP|--|\/\*|;|["`\][]/.test(x))
          expect(hostile.filter((x) => !names.has(x))).toEqual([])
        }
        expect(params).toEqual([])
        continue
      }
      // Strip every quoted identifier: what remains must be our own SQL skeleton.
      let skeleton = ''
      let rest = sql
      while (rest.length > 0) {
        const at = rest.search(/["`[]/)
        if (at < 0) {
          skeleton += rest
          break
        }
        skeleton += `${rest.slice(0, at)}ID`
        rest = lex(name, rest.slice(at))[1]
      }
      expect(skeleton).not.toMatch(/DROP|--|\/\*|;/)
      expect(params).toEqual([])
    }
  })

  it('escapes LIKE wildcards of a contains value in JS, never in SQL', () => {
    if (JSON_DIALECTS.has(name)) {
      if (name === 'mongodb') {
        // a regular expression (case-insensitive) that matches the value literally
        const needle = '100%_a\\b.*(x|y)[z]{2}+?^$/-'
        const re = new RegExp(`^${dialect.containsPattern(needle)}$`, 'i')
        expect(re.test(needle.toUpperCase())).toBe(true)
        expect(re.test('100%_a\\bXX(x|y)[z]{2}+?^$/-')).toBe(false)
      } else {
        // a `wildcard` query value: `*` and `?` are its wildcards, `\` its escape
        const pattern = dialect.containsPattern('100*?_a\\b')
        expect(pattern).toBe('*100\\*\\?_a\\\\b*')
      }
      return
    }
    if (name === 'firebolt') {
      // STRPOS: the needle is plain text, no wildcards
      expect(dialect.containsPattern('100%_a\\b!c')).toBe('100%_a\\b!c')
      return
    }
    const e = (dialect as { likeEscape?: string }).likeEscape ?? '\\'
    const pattern = dialect.containsPattern('100%_a\\b!c')
    expect(pattern.startsWith('%') && pattern.endsWith('%')).toBe(true)
    // read back as LIKE does: the escape character makes the next one literal
    let literal = ''
    const body = [...pattern.slice(1, -1)]
    for (let i = 0; i < body.length; i++) {
      const c = body[i] as string
      if (c === e) literal += body[++i] ?? ''
      else {
        expect(c === '%' || c === '_').toBe(false)
        literal += c
      }
    }
    expect(literal.toLowerCase()).toBe('100%_a\\b!c')
  })
})

it('infers ClickHouse parameter types from JS values', () => {
  expect(clickhouseType('x')).toBe('String')
  expect(clickhouseType(3)).toBe('Int64')
  expect(clickhouseType(2.5)).toBe('Float64')
  expect(clickhouseType(true)).toBe('UInt8')
  expect(clickhouseType(new Date())).toBe('DateTime64(3)')
  expect(clickhouseType(['a', 'b'])).toBe('Array(String)')
  expect(clickhouseType([1, 2.5])).toBe('Array(Float64)')
  expect(clickhouseType(null)).toBe('Nullable(String)')
  expect(() => clickhouseType({})).toThrow(expect.objectContaining({ status: 400 }))
})
