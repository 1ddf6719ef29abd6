import { describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../src/errors.js'
import { firstColumnNames, readRepoFile as read } from './helpers/docs.js'

/**
 * The documentation keeps up with the code: error codes here; links, the configuration table
 * and the routes in docs/links.test.ts.
 */

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
