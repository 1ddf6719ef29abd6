import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs'
import { join } from 'node:path'

/** The demo's tenants: every row of the dataset belongs to exactly one. */
export const DEMO_TENANTS = ['acme', 'globex', 'initech', 'umbrella'] as const

const COUNTRIES = ['DE', 'FR', 'US', 'JP', 'GB', 'BR', 'IN', 'ES']
const SEGMENTS = ['Enterprise', 'Mid-market', 'SMB']
const CHANNELS = ['Web', 'Mobile', 'Partner', 'Retail']
const CATEGORIES = ['Hardware', 'Software', 'Services', 'Support', 'Training']
const STATUSES = ['paid', 'paid', 'paid', 'shipped', 'shipped', 'refunded']
const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Linus',
  'Margaret',
  'Ken',
  'Barbara',
  'Dennis',
  'Radia',
  'Tim',
  'Frances',
  'John',
]
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Torvalds', 'Hamilton', 'Thompson', 'Liskov', 'Ritchie', 'Perlman', 'Lee']

/** A small seeded PRNG (mulberry32): the same dataset on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T

export interface DatasetSize {
  readonly customers: number
  readonly orders: number
}

/**
 * Writes `customers.csv` and `orders.csv` into `dir`: a deterministic multi-tenant sales
 * dataset over the two years 2025–2026, with per-tenant scale and seasonality so the tenants'
 * dashboards look different. Lines go to the file in batches (the whole text at once would
 * leave ~100 MB of garbage in the server's idle RSS), to temporary names fsynced and renamed,
 * so a crash never leaves a half-written table.
 */
export function writeDemoDataset(dir: string, size: DatasetSize = { customers: 2000, orders: 100_000 }): void {
  mkdirSync(dir, { recursive: true })
  const r = random(20_261_123)
  const tenantOf: string[] = []
  writeTable(join(dir, 'customers.csv'), 'id,name,country,segment,tenant', size.customers, (id) => {
    const tenant = DEMO_TENANTS[id % DEMO_TENANTS.length] as string
    tenantOf[id] = tenant
    return `${id},${pick(r, FIRST)} ${pick(r, LAST)},${pick(r, COUNTRIES)},${pick(r, SEGMENTS)},${tenant}`
  })
  const start = Date.UTC(2025, 0, 1)
  const span = Date.UTC(2027, 0, 1) - start
  const scale: Record<string, number> = { acme: 1.6, globex: 1, initech: 0.7, umbrella: 2.3 }
  const header = 'id,customer_id,tenant,status,channel,category,quantity,amount,created_at'
  writeTable(join(dir, 'orders.csv'), header, size.orders, (id) => {
    const customer = 1 + Math.floor(r() * size.customers)
    const tenant = tenantOf[customer] as string
    // later dates are likelier (growth), with a December peak
    let at = start + Math.sqrt(r()) * span
    const month = new Date(at).getUTCMonth()
    if (month === 11 && r() < 0.15) at -= 30 * 86_400_000 * r()
    const quantity = 1 + Math.floor(r() * r() * 10)
    const amount = Math.round((20 + r() * 480) * quantity * (scale[tenant] ?? 1) * 100) / 100
    const when = new Date(Math.floor(at / 1000) * 1000).toISOString().replace('.000Z', 'Z')
    return `${id},${customer},${tenant},${pick(r, STATUSES)},${pick(r, CHANNELS)},${pick(r, CATEGORIES)},${quantity},${amount.toFixed(2)},${when}`
  })
}

const BATCH_LINES = 2_000

/** `header` and `count` lines (`line(1)` … `line(count)`) into `path`, atomically. */
function writeTable(path: string, header: string, count: number, line: (id: number) => string): void {
  const fd = openSync(`${path}.tmp`, 'w')
  try {
    let batch: string[] = [header]
    for (let id = 1; id <= count; id++) {
      batch.push(line(id))
      if (batch.length === BATCH_LINES || id === count) {
        writeSync(fd, `${batch.join('\n')}\n`)
        batch = []
      }
    }
    if (count === 0) writeSync(fd, `${header}\n`)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(`${path}.tmp`, path)
}
