import { LRUCache } from 'lru-cache'

/**
 * Hot-path memory for credential checks: token hash → what it resolved to. Entries live
 * at most `ttlMs`, so a revocation made on another instance takes effect within that time
 * even without a shared bus; revocations on this instance call `clear`/`delete` at once.
 */
export class TokenCache<V extends object> {
  private readonly cache: LRUCache<string, V>

  constructor(ttlMs = 10_000, max = 10_000) {
    this.cache = new LRUCache<string, V>({ max, ttl: ttlMs })
  }

  async resolve(hash: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.cache.get(hash)
    if (hit !== undefined) return hit
    const value = await load()
    if (value !== undefined) this.cache.set(hash, value)
    return value
  }

  delete(hash: string): void {
    this.cache.delete(hash)
  }

  /** Drops every entry for which `match` holds (e.g. all keys of one data app). */
  deleteWhere(match: (value: V) => boolean): void {
    for (const [key, value] of this.cache.entries()) if (match(value)) this.cache.delete(key)
  }
}
