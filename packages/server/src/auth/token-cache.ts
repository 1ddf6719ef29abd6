import { LRUCache } from 'lru-cache'

/** A value, or the promise of one when it has to be loaded (the hot paths answer from memory without a promise). */
export type MaybePromise<T> = T | Promise<T>

/** `f` of a maybe-promised value: synchronous when the value is. */
export function andThen<T, U>(value: MaybePromise<T>, f: (value: T) => U): MaybePromise<U> {
  return value instanceof Promise ? value.then(f) : f(value)
}

/**
 * Hot-path memory for credential checks: token (or its hash) → what it resolved to. Entries live
 * at most `ttlMs`, so a revocation made on another instance takes effect within that time
 * even without a shared bus; revocations on this instance call `clear`/`delete` at once.
 */
export class TokenCache<V extends object> {
  private readonly cache: LRUCache<string, V>

  constructor(ttlMs = 10_000, max = 10_000) {
    this.cache = new LRUCache<string, V>({ max, ttl: ttlMs })
  }

  /** The value from memory (no promise, no microtask), else loaded once and remembered. */
  resolve(key: string, load: () => Promise<V | undefined>): MaybePromise<V | undefined> {
    const hit = this.cache.get(key)
    if (hit !== undefined) return hit
    return load().then((value) => {
      if (value !== undefined) this.cache.set(key, value)
      return value
    })
  }

  delete(key: string): void {
    this.cache.delete(key)
  }

  /** Drops every entry for which `match` holds (e.g. all keys of one data app). */
  deleteWhere(match: (value: V) => boolean): void {
    for (const [key, value] of this.cache.entries()) if (match(value)) this.cache.delete(key)
  }
}
