/**
 * The proof that values rendered as Trino literals stay values (Trino and Athena cannot bind).
 * Two readers check every literal: a lexer written from Trino's grammar (a string literal is
 * `'` then anything but `'`, or `''`, then `'`), and DuckDB's SQL parser, whose string literal
 * rules are the same (standard strings: `''` doubles a quote, backslashes are plain characters).
 * Each hostile value must read back equal, as exactly one literal: nothing after it.
 */
import { DuckDBInstance } from '@duckdb/node-api'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { propertyRuns } from '../../../test/helpers/property-runs.js'
import { TrinoTemporal } from '../../query/dialects/trino.js'
import { stringLiteral, trinoLiteral } from './literals.js'

const HOSTILE = [
  '',
  "'",
  "''",
  "'; DROP TABLE t; --",
  "x' OR '1'='1",
  "back\\slash \\' \\\\",
  'end with backslash\\',
  '-- line comment',
  '/* block */ comment */',
  '? $1 :name @p0 {p0:String}',
  'new\nline\r\ttab',
  'ünïcødé ✓ 𝄞 中文 — ok',
  "U&'\\0041'",
  '\u2028\u2029\u00a0\ufeff',
  '"double" `back`',
  "'||chr(39)||'",
]

/** Reads one Trino string literal at the start of `text`: [value, rest]. */
function lexString(text: string): [string, string] {
  expect(text[0]).toBe("'")
  let out = ''
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "'") {
      if (text[i + 1] === "'") {
        out += "'"
        i++
        continue
      }
      return [out, text.slice(i + 1)]
    }
    out += text[i]
  }
  throw new Error(`unterminated literal ${text}`)
}

let instance: DuckDBInstance
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:')
})
afterAll(() => instance.closeSync())

/** What a real SQL parser makes of `SELECT <literal> AS v`: its one column and value. */
async function parsedBack(literal: string): Promise<{ columns: string[]; value: unknown }> {
  const conn = await instance.connect()
  try {
    const reader = await conn.runAndReadAll(`SELECT ${literal} AS v`)
    return { columns: reader.columnNames(), value: reader.getRowObjectsJS()[0]?.v }
  } finally {
    conn.closeSync()
  }
}

describe('Trino string literals', () => {
  it.each(HOSTILE)('renders %j as exactly one literal that reads back equal', async (value) => {
    const literal = stringLiteral(value)
    expect(lexString(literal)).toEqual([value, ''])
    expect(await parsedBack(literal)).toEqual({ columns: ['v'], value })
  })

  it('reads back any string, as one literal (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom("'", '\\', '-', '/', '*', '?', '"', ';', '\n', 'a', 'é', '𝄞', ' ') }),
        fc.string({ unit: 'grapheme' }),
        async (hostile, unicode) => {
          for (const value of [hostile, unicode, hostile + unicode]) {
            const literal = stringLiteral(value)
            expect(lexString(literal)).toEqual([value, ''])
            expect(await parsedBack(literal)).toEqual({ columns: ['v'], value })
          }
        },
      ),
      propertyRuns(150),
    )
  })

  it('refuses NUL and unpaired surrogates with a 400 (they could not travel unchanged)', () => {
    for (const value of ['a\u0000b', 'a\uD800b', 'a\uDC00', '\uD83D']) {
      expect(() => stringLiteral(value)).toThrow(expect.objectContaining({ status: 400, code: 'QUERY_ERROR' }))
    }
    expect(stringLiteral('𝄞')).toBe("'𝄞'") // a paired surrogate is one character
  })
})

describe('typed literals', () => {
  it('renders each kind of value as its literal, read back equal', async () => {
    const cases: [unknown, string, unknown][] = [
      [null, 'NULL', null],
      [undefined, 'NULL', null],
      [true, 'TRUE', true],
      [false, 'FALSE', false],
      [7, '7', 7],
      [-42, '-42', -42],
      [-0, '0', 0],
      [1.5, "DOUBLE '1.5'", 1.5],
      [-2.5e-7, "DOUBLE '-2.5e-7'", -2.5e-7],
      [2 ** 60, "DOUBLE '1152921504606847000'", 2 ** 60], // JS's shortest round-trip form

      [9007199254740993n, '9007199254740993', 9007199254740993n],
    ]
    for (const [value, literal, back] of cases) {
      expect(trinoLiteral(value)).toBe(literal)
      const read = await parsedBack(literal)
      expect(read.columns).toEqual(['v'])
      // DuckDB reads integer literals as INTEGER or BIGINT (a bigint in JS)
      const got = typeof read.value === 'bigint' && typeof back === 'number' ? Number(read.value) : read.value
      expect(got, literal).toEqual(back)
    }
  })

  it('renders a Date as its UTC wall clock in a TIMESTAMP literal', async () => {
    const d = new Date('2024-03-05T06:07:08.009Z')
    expect(trinoLiteral(d)).toBe("TIMESTAMP '2024-03-05 06:07:08.009'")
    const read = await parsedBack(trinoLiteral(d))
    expect(read.columns).toEqual(['v'])
    expect((read.value as Date).toISOString()).toBe('2024-03-05T06:07:08.009Z')
  })

  it("renders the dialect's typed date-range bounds as DATE / TIMESTAMP literals, and only well-formed ones", async () => {
    expect(trinoLiteral(new TrinoTemporal('DATE', '2024-03-01'))).toBe("DATE '2024-03-01'")
    expect(trinoLiteral(new TrinoTemporal('TIMESTAMP', '2024-03-09 00:00:00'))).toBe("TIMESTAMP '2024-03-09 00:00:00'")
    const read = await parsedBack("DATE '2024-03-01'")
    expect((read.value as Date).toISOString()).toBe('2024-03-01T00:00:00.000Z')
    for (const text of ["2024-03-01'", '2024-03-01 00:00:00', "2024-03-01' OR '1'='1", '']) {
      expect(() => trinoLiteral(new TrinoTemporal('DATE', text))).toThrow(expect.objectContaining({ status: 400 }))
    }
    expect(() => trinoLiteral(new TrinoTemporal('TIMESTAMP', "2024-03-09 00:00:00'--"))).toThrow(
      expect.objectContaining({ status: 400 }),
    )
  })

  it('refuses what has no safe literal with a 400', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, 2n ** 64n, new Date(Number.NaN), {}, [1], () => 1]) {
      expect(() => trinoLiteral(value)).toThrow(expect.objectContaining({ status: 400 }))
    }
  })
})
