import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEMO_TENANTS, writeDemoDataset } from './dataset.js'

const generate = (size = { customers: 50, orders: 4_321 }) => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-demo-'))
  writeDemoDataset(dir, size)
  const read = (name: string) => readFileSync(join(dir, `${name}.csv`), 'utf8')
  return { customers: read('customers'), orders: read('orders') }
}

describe('demo dataset', () => {
  it('writes every line once, in batches, with each order in its customer’s tenant', () => {
    const { customers, orders } = generate()
    const customerLines = customers.trimEnd().split('\n')
    const orderLines = orders.trimEnd().split('\n')
    expect(customers.endsWith('\n') && orders.endsWith('\n')).toBe(true)
    expect(customerLines[0]).toBe('id,name,country,segment,tenant')
    expect(customerLines).toHaveLength(51)
    expect(orderLines).toHaveLength(4_322) // spans three write batches
    const tenantOf = new Map(customerLines.slice(1).map((l) => [l.split(',')[0], l.split(',')[4]]))
    const ids = orderLines.slice(1).map((l) => Number(l.split(',')[0]))
    expect(ids).toEqual(Array.from({ length: 4_321 }, (_, i) => i + 1))
    for (const line of orderLines.slice(1)) {
      const [, customer, tenant, , , , , , createdAt] = line.split(',')
      expect(tenantOf.get(customer as string)).toBe(tenant)
      expect(createdAt).toMatch(/^202[56]-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    }
    expect(new Set(orderLines.slice(1).map((l) => l.split(',')[2]))).toEqual(new Set(DEMO_TENANTS))
  })

  it('is deterministic', () => {
    expect(generate()).toEqual(generate())
  })
})
