import { describe, expect, it } from 'vitest'
import { allTenantsFailed, failedTenantLines, type TenantFailure, tenantFailureText } from './tenant-failures.js'

const failure = (
  database: string,
  keptFiles = false,
  error = `relation "shop.orders" does not exist`,
): TenantFailure => ({
  database,
  error,
  code: 'QUERY_ERROR',
  keptFiles,
})

describe('tenantFailureText', () => {
  it('counts, names those that keep older files first, then gives the first three errors', () => {
    const text = tenantFailureText(
      [failure('postgres'), failure('shop_b', true, 'column t0.amount does not exist'), failure('test')],
      5,
    )
    expect(text).toBe(
      '3 of 5 tenant databases not refreshed (previous files kept for 1): shop_b, postgres, test. ' +
        'shop_b: column t0.amount does not exist; postgres: relation "shop.orders" does not exist; ' +
        'test: relation "shop.orders" does not exist',
    )
  })

  it('is bounded: ten names and a count of the rest, errors cut at 200 characters', () => {
    const many = Array.from({ length: 25 }, (_, i) =>
      failure(`tenant_${String(i).padStart(2, '0')}`, false, 'x'.repeat(500)),
    )
    const text = tenantFailureText(many, 40)
    expect(text).toMatch(
      /^25 of 40 tenant databases not refreshed \(previous files kept for 0\): tenant_00, .*, tenant_09 and 15 more\. /,
    )
    expect(text).not.toContain('tenant_10')
    expect(text).toContain(`tenant_00: ${'x'.repeat(200)}…;`)
    expect(text.length).toBeLessThan(1000)
  })

  it('every tenant database failed: an error with the same text and the first one’s code', () => {
    const err = allTenantsFailed([{ ...failure('a'), code: 'DATASOURCE_CONNECTION_ERROR' }, failure('b')])
    expect(err.code).toBe('DATASOURCE_CONNECTION_ERROR')
    expect(err.message).toMatch(/^2 of 2 tenant databases not refreshed \(previous files kept for 0\): a, b\. /)
  })
})

describe('failedTenantLines', () => {
  it('names every failed tenant database once, in order, a hundred a line', () => {
    const names = Array.from({ length: 250 }, (_, i) => `db_${String(i).padStart(3, '0')}`)
    const lines = failedTenantLines(names)
    expect(lines.map((l) => [l.failedTenants.length, l.part, l.parts])).toEqual([
      [100, 1, 3],
      [100, 2, 3],
      [50, 3, 3],
    ])
    expect(lines.flatMap((l) => l.failedTenants)).toEqual(names)
  })

  it('a few: one line without part numbers; none: no line', () => {
    expect(failedTenantLines(['b', 'c'])).toEqual([{ failedTenants: ['b', 'c'] }])
    expect(failedTenantLines(Array.from({ length: 100 }, (_, i) => `d${i}`))).toHaveLength(1)
    expect(failedTenantLines([])).toEqual([])
  })
})
