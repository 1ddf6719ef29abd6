import fc from 'fast-check'

/**
 * Strings an attacker (or a confused client) sends: SQL and template injection, path
 * traversal, prototype keys, control characters, lone surrogates, bidi and zero-width
 * characters, very long values. Used for fields, filter keys and values, path parameters,
 * query parameters and header values alike.
 */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  "'",
  '"',
  '\\',
  "' OR '1'='1",
  "acme' OR '1'='1' --",
  "acme'; DROP TABLE orders; --",
  "acme' UNION SELECT * FROM customers --",
  '1) OR (1=1',
  '"; select pg_sleep(10); --',
  '{{clientId}}',
  '{{ clientId }}',
  '$1',
  '?',
  ':clientId',
  '%s%s%s%n',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection payload, on purpose
  '${process.exit()}',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  '../../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '/dev/zero',
  'C:\\Windows\\win.ini',
  'None',
  'none',
  'NONE',
  'null',
  'undefined',
  'true',
  'NaN',
  '-1',
  '0',
  '1e309',
  '9007199254740993',
  'acme\u0000globex',
  '\u0000',
  'acme\r\nX-Injected: 1',
  '\ud800',
  '\udfff',
  'a\ud83d',
  '\u202egnp.exe',
  '\u200b',
  '\ufeff',
  'Ａｃｍｅ',
  'ACME',
  ' acme',
  'acme ',
  'ﬀ',
  '𝔞𝔠𝔪𝔢',
  '<script>alert(1)</script>',
  '<html><body>',
  "javascript:alert('x')",
  '*',
  '%',
  '_',
  '%00',
  '%',
  '%E0%A4%A',
  '\t\n\v\f\r',
  'x'.repeat(201),
  'x'.repeat(513),
  'y'.repeat(10_001),
  '🙂'.repeat(300),
]

/** A hostile string: a known one, a random full-unicode one (lone surrogates included) or a long run. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', "'", '\u0000', '🙂', '%', '\\'), fc.integer({ min: 100, max: 20_000 }))
      .map(([c, n]) => c.repeat(n)),
  },
)

/** A nested value `depth` levels deep: arrays, objects or a mix. */
export function nested(depth: number, kind: 'array' | 'object' | 'mixed', leaf: unknown = 1): unknown {
  let value: unknown = leaf
  for (let i = 0; i < depth; i++) {
    const asArray = kind === 'array' || (kind === 'mixed' && i % 2 === 0)
    value = asArray ? [value] : { a: value }
  }
  return value
}

/**
 * JSON text nested `depth` levels deep, built as text (a value that deep cannot always be
 * stringified by JSON.stringify).
 */
export function nestedText(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
}

/** Any JSON value, including the odd ones: deep, wide, big numbers, hostile strings. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 2, arbitrary: hostileString },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.integer({ min: 50, max: 3_000 }),
        fc.constantFrom('array', 'object', 'mixed') as fc.Arbitrary<'array' | 'object' | 'mixed'>,
      )
      .map(([d, k]) => nested(d, k)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      0,
      -0,
      1e308,
      -1e308,
      Number.MAX_SAFE_INTEGER + 2,
      0.1,
      [],
      {},
      [null],
      { '': '' },
      Array.from({ length: 5_000 }, (_, i) => i),
      Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, i])),
    ),
  },
)

/**
 * Raw bodies that are not what they claim to be: invalid UTF-8, UTF-16, BOMs, truncated or
 * trailing-garbage JSON, prototype poisoning, duplicate keys, JSON so deep that a recursive
 * reader would overflow its stack.
 */
export const RAW_BODIES: readonly Buffer[] = [
  Buffer.from([0xff, 0xfe, 0xfd]),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), // {"a":"\xff\xfe"}
  Buffer.from([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d]), // overlong '/' as a key
  Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]), // a UTF-8 encoded lone surrogate
  Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), // BOM + {}
  Buffer.from('{"metricId":"revenue"}', 'utf16le'),
  Buffer.from([0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d]),
  Buffer.from([0x00]),
  Buffer.from('\u0000{}'),
  Buffer.from('{'),
  Buffer.from('{"a":1'),
  Buffer.from('{"a":1}}'),
  Buffer.from('{"a":1} trailing'),
  Buffer.from('[1,2,'),
  Buffer.from("{'a':1}"),
  Buffer.from('{"a":NaN}'),
  Buffer.from('{"a":Infinity}'),
  Buffer.from('{"a":1e999999}'),
  Buffer.from('{"a":-}'),
  Buffer.from('{"a":"\\ud800"}'),
  Buffer.from('{"a":"\\u0000"}'),
  Buffer.from('{"a":"\\x41"}'),
  Buffer.from('{"__proto__":{"polluted":true}}'),
  Buffer.from('{"constructor":{"prototype":{"polluted":true}}}'),
  Buffer.from('{"a":{"__proto__":{"polluted":true}}}'),
  Buffer.from('{"metricId":"revenue","metricId":"orders_by_month"}'),
  Buffer.from('null'),
  Buffer.from('true'),
  Buffer.from('0'),
  Buffer.from('"text"'),
  Buffer.from('[]'),
  Buffer.from('   '),
  Buffer.from('\r\n'),
  Buffer.from(nestedText(100_000, 'array')),
  Buffer.from(nestedText(50_000, 'object')),
  Buffer.from(`{"metricId":"revenue","dashboardFilter":${nestedText(20_000, 'object')}}`),
  Buffer.from(`{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`), // over BODY_LIMIT (1 MiB)
]

/** Raw body: a fixed odd one, or random bytes. */
export const rawBody: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...RAW_BODIES) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)) },
  {
    weight: 1,
    // valid JSON with invalid UTF-8 spliced in at a random point
    arbitrary: fc
      .tuple(fc.jsonValue({ maxDepth: 2 }), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 }))
      .map(([v, at, bad]) => {
        const text = Buffer.from(JSON.stringify(v) ?? 'null')
        const i = at % (text.length + 1)
        return Buffer.concat([text.subarray(0, i), Buffer.from(bad.map((b) => b | 0x80)), text.subarray(i)])
      }),
  },
)

/**
 * JSON text a JSON-carrying query parameter (the CSV download's `dashboardFilter`) may be sent:
 * malformed, prototype-poisoning keys plain and escaped, at the top or inside a filter value,
 * not an object, and huge (past the parameter's length bound, within it, and wide).
 */
export const HOSTILE_JSON_TEXTS: readonly string[] = [
  '{',
  '{"country":',
  '{"country":["DE"]',
  '{"country":["DE"]}}',
  "{'country':['DE']}",
  '{"country":NaN}',
  '{"country":["DE"]} trailing',
  '{"country":"\\ud800"}',
  '\ufeff{"country":["DE"]}',
  '',
  'null',
  '[]',
  '"DE"',
  '1e999999',
  '{"__proto__":{"polluted":true}}',
  '{"\\u005f_proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"\\u0063onstructor":{"prototype":{"polluted":true}}}',
  '{"country":{"__proto__":{"polluted":true}}}',
  '{"country":["DE"],"amount":{"constructor":{"prototype":{"polluted":true}}}}',
  '{"__proto__":["DE"]}',
  '{"constructor":["DE"]}',
  '{"toString":["DE"],"hasOwnProperty":["FR"]}',
  `{"country":["${'D'.repeat(100_001)}"]}`,
  `{"country":["${'D'.repeat(99_000)}"]}`,
  JSON.stringify({ country: Array.from({ length: 15_000 }, (_, i) => `c${i}`) }),
  JSON.stringify(Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, [i]]))),
]

/** Hostile JSON text for a JSON-carrying query parameter: a fixed one, or valid JSON cut short. */
export const hostileJsonText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_JSON_TEXTS) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.jsonValue({ maxDepth: 3 }), fc.nat()).map(([v, at]) => {
      const text = JSON.stringify(v) ?? 'null'
      return text.slice(0, at % (text.length + 1))
    }),
  },
)
