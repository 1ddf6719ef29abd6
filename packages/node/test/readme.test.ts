import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Strata } from '../src/index.js'

/**
 * The README's methods table is the client's surface: one row per namespace of `Strata`, naming
 * each of its methods, no more and no fewer.
 */
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8')

/** namespace → the methods its row names: each code span's first word, prose in parentheses left out */
function documentedMethods(): Record<string, string[]> {
  const section = README.split('\n## Methods\n')[1]?.split('\n## ')[0] ?? ''
  const rows = section.split('\n').filter((line) => /^\| `\w+`/.test(line))
  return Object.fromEntries(
    rows.map((row) => {
      const [, namespace = '', methods = ''] = row.split('|').map((cell) => cell.trim())
      return [
        namespace.replaceAll('`', ''),
        [...methods.replace(/\([^)]*\)/g, '').matchAll(/`(\w+)/g)].map((m) => m[1] ?? '').sort(),
      ]
    }),
  )
}

/** namespace → the methods its class has */
function clientMethods(): Record<string, string[]> {
  const strata = new Strata({ baseUrl: 'http://127.0.0.1:1', apiKey: 'sk_x' })
  return Object.fromEntries(
    Object.entries(strata)
      .filter(([name]) => name !== 'api')
      .map(([name, namespace]: [string, object]) => [
        name,
        Object.getOwnPropertyNames(Object.getPrototypeOf(namespace))
          .filter((method) => method !== 'constructor')
          .sort(),
      ]),
  )
}

describe('the README', () => {
  it('lists every namespace and method of the client in its methods table, and only those', () => {
    const documented = documentedMethods()
    expect(Object.keys(documented).length).toBeGreaterThan(0)
    expect(documented).toEqual(clientMethods())
  })
})
