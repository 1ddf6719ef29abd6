import { LRUCache } from 'lru-cache'

/**
 * How long an instance may keep serving what another instance changed when no Redis bus
 * carries the invalidation (with Redis, every change is forgotten everywhere at once).
 */
export const PEER_STALENESS_MS = 15_000

/** A hot-path cache of store rows: bounded, and never older than PEER_STALENESS_MS. */
export function peerCache<V extends object>(max = 10_000): LRUCache<string, V> {
  return new LRUCache<string, V>({ max, ttl: PEER_STALENESS_MS })
}
