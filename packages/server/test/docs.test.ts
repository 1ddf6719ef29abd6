import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseConfig } from '../src/config.js'
import { ERROR_CODES } from '../src/errors.js'

/** The documentation keeps up with the code: error codes and configuration variables. */
const ROOT = new URL('../../../', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8')

/** The backticked names in the first column of the markdown table rows of `text`. */
function firstColumnNames(text: string): Set<string> {
  const names = new Set<string>()
  for (const line of text.split('\n')) {
    const cell = /^\|([^|]*)\|/.exec(line)?.[1]
    for (const [, name] of cell?.matchAll(/`([A-Z][A-Z0-9_]*)`/g) ?? []) names.add(name as string)
  }
  return names
}

/** Every environment variable parseConfig reads: recorded on the way, plus named in its source. */
function configVariables(): string[] {
  const seen = new Set<string>()
  const recording = (seed: Record<string, string>) =>
    new Proxy(seed, {
      get(target, name) {
        if (typeof name === 'string') seen.add(name)
        return target[name as string]
      },
    })
  parseConfig(recording({}))
  parseConfig(
    recording({
      DATABASE_URL: 'postgres://u@h/db',
      REDIS_URL: 'redis://h',
      ADMIN_EMAIL: 'a@b.co',
      ADMIN_PASSWORD: 'x',
    }),
  )
  // variables read only on some paths show up in the source as `env, 'NAME'` or `limit('NAME'`
  const source = readFileSync(new URL('../src/config.ts', import.meta.url), 'utf8')
  for (const [, name] of source.matchAll(/(?:env, |limit\()'([A-Z][A-Z0-9_]*)'/g)) seen.add(name as string)
  return [...seen].sort()
}

describe('docs/errors.md', () => {
  const documented = firstColumnNames(read('docs/errors.md'))

  it('documents every code in ERROR_CODES', () => {
    const missing = ERROR_CODES.filter((code) => !documented.has(code))
    expect(missing, 'add a row for each to docs/errors.md').toEqual([])
  })

  it('documents no code that does not exist', () => {
    const known = new Set<string>(ERROR_CODES)
    expect([...documented].filter((code) => !known.has(code))).toEqual([])
  })
})

describe("README.md's configuration table", () => {
  it('lists every variable parseConfig reads', () => {
    const readme = read('README.md')
    const section = readme.slice(
      readme.indexOf('## Configuration'),
      readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1),
    )
    const listed = firstColumnNames(section)
    const variables = configVariables()
    expect(variables.length).toBeGreaterThanOrEqual(20)
    expect(
      variables.filter((name) => !listed.has(name)),
      'add a row for each to README.md',
    ).toEqual([])
  })
})
