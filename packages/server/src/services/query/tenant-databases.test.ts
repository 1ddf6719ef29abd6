import { describe, expect, it } from 'vitest'
import { TenantDatabases } from './tenant-databases.js'

/** A warehouse whose databases the test changes, counting its listings; `gate` holds listings until opened. */
function warehouse(initial: string[]) {
  const w = {
    names: [...initial],
    listings: 0,
    failing: false,
    gate: undefined as Promise<void> | undefined,
    list: async (): Promise<readonly string[]> => {
      w.listings++
      const names = [...w.names]
      await w.gate
      if (w.failing) throw new Error('connection refused')
      return names
    },
  }
  return w
}

function gate() {
  let open!: () => void
  const promise = new Promise<void>((r) => {
    open = r
  })
  return { promise, open }
}

function clock(start = 1_000_000) {
  const c = { at: start, now: () => c.at }
  return c
}

const names = async (dbs: TenantDatabases, id: string, clientId: string, list: () => Promise<readonly string[]>) =>
  (await dbs.lookup(id, clientId, list)).names

describe('tenant databases', () => {
  it('holds a list for the hold, read again by the first request after it; a held name lists nothing', async () => {
    const c = clock()
    const w = warehouse(['acme', 'globex'])
    const dbs = new TenantDatabases({ holdMs: 60_000, recheckMs: 5_000, now: c.now })
    const first = await dbs.lookup('ds', 'acme', w.list)
    expect(first).toMatchObject({ names: ['acme', 'globex'], until: c.at + 60_000 })
    c.at += 59_999
    w.names = ['globex']
    for (let i = 0; i < 50; i++) expect(await names(dbs, 'ds', i % 2 ? 'acme' : 'globex', w.list)).toContain('acme')
    expect(w.listings).toBe(1)
    // the hold is over: read again, and a dropped database is gone
    c.at += 1
    expect(await names(dbs, 'ds', 'acme', w.list)).toEqual(['globex'])
    expect(w.listings).toBe(2)
  })

  it('a clientId the held list lacks reads it again, at most once per recheck interval per datasource', async () => {
    const c = clock()
    const w = warehouse(['acme'])
    const dbs = new TenantDatabases({ holdMs: 60_000, recheckMs: 5_000, now: c.now })
    await dbs.lookup('ds', 'acme', w.list)
    c.at += 10_000
    w.names = ['acme', 'initech']
    // created after the list was read: one listing finds it
    expect(await names(dbs, 'ds', 'initech', w.list)).toEqual(['acme', 'initech'])
    expect(w.listings).toBe(2)
    // found now: no listing
    expect(await names(dbs, 'ds', 'initech', w.list)).toEqual(['acme', 'initech'])
    // unknown names within the interval are decided on the held list
    w.names = ['acme', 'initech', 'hooli']
    for (const id of ['hooli', 'nope', 'x'.repeat(300)]) {
      expect(await names(dbs, 'ds', id, w.list)).toEqual(['acme', 'initech'])
    }
    expect(w.listings).toBe(2)
    // another datasource has an interval of its own
    await dbs.lookup('other', 'hooli', w.list)
    expect(w.listings).toBe(3)
    c.at += 4_999
    expect(await names(dbs, 'ds', 'hooli', w.list)).not.toContain('hooli')
    expect(w.listings).toBe(3)
    c.at += 1
    expect(await names(dbs, 'ds', 'hooli', w.list)).toContain('hooli')
    expect(w.listings).toBe(4)
  })

  it('200 concurrent unknown clientIds share one listing, on a held list and on none', async () => {
    const c = clock()
    const w = warehouse(['acme'])
    const dbs = new TenantDatabases({ holdMs: 60_000, recheckMs: 5_000, now: c.now })
    const g = gate()
    w.gate = g.promise
    const storm = (prefix: string) =>
      Promise.all(Array.from({ length: 200 }, (_, i) => names(dbs, 'ds', `${prefix}${i}`, w.list)))
    const cold = storm('cold')
    await new Promise((r) => setTimeout(r, 10))
    expect(w.listings).toBe(1)
    g.open()
    expect(new Set((await cold).map((n) => n.join()))).toEqual(new Set(['acme']))
    expect(w.listings).toBe(1)
    // past the recheck interval, the first miss lists and the others wait for it
    c.at += 5_000
    const g2 = gate()
    w.gate = g2.promise
    const held = storm('held')
    await new Promise((r) => setTimeout(r, 10))
    g2.open()
    await held
    expect(w.listings).toBe(2)
    // and the storm right after lists nothing more
    await storm('again')
    expect(w.listings).toBe(2)
  })

  it('forget drops the held list; a listing in flight at the time is used by its waiters, not kept', async () => {
    const c = clock()
    const w = warehouse(['acme'])
    const dbs = new TenantDatabases({ holdMs: 60_000, recheckMs: 5_000, now: c.now })
    await dbs.lookup('ds', 'acme', w.list)
    dbs.forget('ds')
    w.names = []
    expect(await names(dbs, 'ds', 'acme', w.list)).toEqual([])
    expect(w.listings).toBe(2)
    const g = gate()
    w.gate = g.promise
    w.names = ['acme']
    c.at += 5_000
    const inFlight = names(dbs, 'ds', 'acme', w.list)
    await new Promise((r) => setTimeout(r, 10))
    dbs.forget('ds')
    w.names = ['globex']
    g.open()
    expect(await inFlight).toEqual(['acme'])
    w.gate = undefined
    expect(await names(dbs, 'ds', 'globex', w.list)).toEqual(['globex'])
    expect(w.listings).toBe(4)
  })

  it('a failed listing fails its waiters and is not held; a miss within the interval after it keeps the held list', async () => {
    const c = clock()
    const w = warehouse(['acme'])
    const dbs = new TenantDatabases({ holdMs: 60_000, recheckMs: 5_000, now: c.now })
    w.failing = true
    const g = gate()
    w.gate = g.promise
    const failed = Promise.allSettled([dbs.lookup('ds', 'acme', w.list), dbs.lookup('ds', 'globex', w.list)])
    g.open()
    expect((await failed).map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(w.listings).toBe(1)
    w.failing = false
    w.gate = undefined
    // nothing held: the next request lists
    expect(await names(dbs, 'ds', 'acme', w.list)).toEqual(['acme'])
    c.at += 5_000
    w.failing = true
    await expect(dbs.lookup('ds', 'initech', w.list)).rejects.toThrow('connection refused')
    expect(await names(dbs, 'ds', 'initech', w.list)).toEqual(['acme'])
    expect(await names(dbs, 'ds', 'acme', w.list)).toEqual(['acme'])
    expect(w.listings).toBe(3)
  })
})
