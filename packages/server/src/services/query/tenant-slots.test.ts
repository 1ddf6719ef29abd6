import { describe, expect, it } from 'vitest'
import { TenantSlots } from './tenant-slots.js'

const deferred = () => {
  let resolve!: () => void
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

describe('tenant slots', () => {
  it('runs at most N queries per tenant, in arrival order, and other tenants at once', async () => {
    const slots = new TenantSlots(2)
    const order: string[] = []
    const gates = Array.from({ length: 4 }, deferred)
    const runs = gates.map((g, i) =>
      slots.run('acme', 10_000, async () => {
        order.push(`start ${i}`)
        await g.promise
      }),
    )
    await new Promise((r) => setTimeout(r, 10))
    expect(order).toEqual(['start 0', 'start 1'])
    expect(slots.active('acme')).toBe(2)
    // another tenant is not behind acme's queue
    await slots.run('globex', 10_000, async () => void order.push('globex'))
    expect(order).toEqual(['start 0', 'start 1', 'globex'])
    gates[1]?.resolve()
    await runs[1]
    await new Promise((r) => setTimeout(r, 0))
    expect(order).toEqual(['start 0', 'start 1', 'globex', 'start 2'])
    for (const g of gates) g.resolve()
    await Promise.all(runs)
    expect(order.at(-1)).toBe('start 3')
    expect(slots.active('acme')).toBe(0)
  })

  it('answers QUERY_TIMEOUT when no slot frees within the timeout, and gives the rest of it to the query', async () => {
    const slots = new TenantSlots(1)
    const hold = deferred()
    const holder = slots.run('acme', 10_000, () => hold.promise)
    await expect(slots.run('acme', 50, async () => 'ran')).rejects.toMatchObject({ code: 'QUERY_TIMEOUT', status: 400 })
    const later = slots.run('acme', 5_000, async (remaining) => remaining)
    await new Promise((r) => setTimeout(r, 100))
    hold.resolve()
    await holder
    const remaining = await later
    expect(remaining).toBeLessThanOrEqual(4_950)
    expect(remaining).toBeGreaterThan(0)
    expect(slots.active('acme')).toBe(0)
  })

  it('gives the whole timeout to a query that got a slot at once', async () => {
    const slots = new TenantSlots(1)
    expect(await slots.run('acme', 30_000, async (remaining) => remaining)).toBe(30_000)
  })

  it('frees the slot when the query fails', async () => {
    const slots = new TenantSlots(1)
    await expect(slots.run('acme', 1_000, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await slots.run('acme', 1_000, async () => 'next')).toBe('next')
  })
})
