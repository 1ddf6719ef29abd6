import { LRUCache } from 'lru-cache'
import { connectionError } from '../errors.js'
import type { ConnectorOptions } from '../types.js'
import { DEFAULT_TENANT_POOLS } from './execution.js'

/**
 * Pools a connector keeps: `maxTenantPools` tenant databases, +1 because the configured
 * database shares the cache with them but is used most.
 */
export function tenantPoolLimit(options: Pick<ConnectorOptions, 'maxTenantPools'>): number {
  return (options.maxTenantPools ?? DEFAULT_TENANT_POOLS) + 1
}

export interface PoolCacheOptions<P> {
  /** Pools kept open at once; the least recently used one is closed past this. */
  readonly max: number
  readonly create: (key: string) => P
  /** Ends a pool; failures are swallowed (the pool is gone either way). */
  readonly close: (pool: P) => Promise<void>
}

interface Entry<P> {
  readonly pool: P
  /** Callers inside use() right now: an evicted pool is closed only when this reaches 0. */
  active: number
  idle: (() => void) | undefined
}

/**
 * DATABASE tenancy: one pool per tenant database, created on first use, reused after, and
 * bounded, so a datasource with thousands of tenant databases keeps only the active ones open.
 * An evicted pool is closed once the queries using it have finished (some drivers' `end()`
 * would otherwise cut a running query short).
 */
export class PoolCache<P extends object> {
  readonly #options: PoolCacheOptions<P>
  readonly #pools: LRUCache<string, Entry<P>>
  readonly #closing = new Set<Promise<void>>()
  #closed = false

  constructor(options: PoolCacheOptions<P>) {
    this.#options = options
    this.#pools = new LRUCache<string, Entry<P>>({
      max: Math.max(1, options.max),
      dispose: (entry) => this.#close(entry),
    })
  }

  /** Runs `work` with the pool of `key` (created if needed), holding it open meanwhile. */
  async use<T>(key: string, work: (pool: P) => Promise<T>): Promise<T> {
    if (this.#closed) throw connectionError('the connector is closed')
    let entry = this.#pools.get(key)
    if (entry === undefined) {
      entry = { pool: this.#options.create(key), active: 0, idle: undefined }
      this.#pools.set(key, entry)
    }
    entry.active++
    try {
      return await work(entry.pool)
    } finally {
      entry.active--
      if (entry.active === 0) entry.idle?.()
    }
  }

  /** Drops one pool (e.g. after its database vanished), closing it. */
  delete(key: string): void {
    this.#pools.delete(key)
  }

  get size(): number {
    return this.#pools.size
  }

  keys(): string[] {
    return [...this.#pools.keys()]
  }

  async closeAll(): Promise<void> {
    this.#closed = true
    this.#pools.clear()
    await Promise.all([...this.#closing])
  }

  #close(entry: Entry<P>): void {
    const done = (async () => {
      if (entry.active > 0) {
        await new Promise<void>((resolve) => {
          entry.idle = resolve
        })
      }
      await this.#options.close(entry.pool)
    })()
      .catch(() => undefined)
      .finally(() => this.#closing.delete(done))
    this.#closing.add(done)
  }
}
