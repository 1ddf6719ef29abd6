import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'
import { LRUCache } from 'lru-cache'
import type { ResultIdentity } from '../../query/plan.js'

/**
 * What a cached result is keyed by: a plan's identity. The tenant context is in it twice over:
 * the database (DATABASE tenancy) explicitly, and the tenancy/RLS predicates' values as bound
 * parameters of the compiled SQL; a key without them is how comparable products leaked rows.
 */
export type ResultKey = ResultIdentity

const PREFIX = 'strata:result:'

/**
 * Metric results: an in-process LRU, shared through Redis when configured, with a TTL; a cold
 * key is computed once however many requests ask for it at the same moment (single flight).
 * Redis failures degrade to the local cache, never to an error.
 */
export class ResultCache<V extends object> {
  private readonly local: LRUCache<string, V> | undefined
  private readonly inflight = new Map<string, Promise<V>>()

  constructor(
    private readonly ttlMs: number,
    private readonly redis: Redis | undefined,
    maxEntries = 5000,
    /** Bytes the local cache may hold (its ids and results as JSON): a result's rows vary widely. */
    maxBytes = 32 * 1024 * 1024,
  ) {
    this.local =
      ttlMs > 0
        ? new LRUCache<string, V>({
            max: maxEntries,
            ttl: ttlMs,
            maxSize: maxBytes,
            // a result larger than the whole budget is answered but not kept
            sizeCalculation: (value, id) => Math.max(1, id.length + (JSON.stringify(value)?.length ?? 0)),
          })
        : undefined
  }

  /** Approximate bytes the local cache holds now. */
  get retainedBytes(): number {
    return this.local?.calculatedSize ?? 0
  }

  /** The shared (Redis) id of a key: SHA-256 of its canonical JSON. */
  static key(key: ResultKey): string {
    return hashOf(canonical(key))
  }

  /** The in-process id of a key: its canonical JSON (no hash on the hot path; only Redis gets one). */
  static id(key: ResultKey): string {
    return canonical(key)
  }

  /** `id`: the key's `ResultCache.id` when the caller has it already (made once per query plan). */
  async get(key: ResultKey, compute: () => Promise<V>, id = canonical(key)): Promise<{ value: V; hit: boolean }> {
    const local = this.local?.get(id)
    if (local) return { value: local, hit: true }
    const running = this.inflight.get(id)
    if (running) return { value: await running, hit: true }
    let hit = false
    const promise = (async () => {
      const shared = this.redis && this.ttlMs > 0 ? hashOf(id) : undefined
      const stored = shared === undefined ? undefined : await this.fromRedis(shared)
      if (stored) {
        hit = true
        return stored
      }
      const value = await compute()
      if (shared !== undefined) {
        void this.redis?.set(PREFIX + shared, JSON.stringify(value), 'PX', this.ttlMs).catch(() => {})
      }
      return value
    })()
    this.inflight.set(id, promise)
    try {
      const value = await promise
      this.local?.set(id, value)
      return { value, hit }
    } finally {
      this.inflight.delete(id)
    }
  }

  clear(): void {
    this.local?.clear()
  }

  private async fromRedis(id: string): Promise<V | undefined> {
    if (!this.redis || this.ttlMs <= 0) return undefined
    try {
      const text = await this.redis.get(PREFIX + id)
      return text ? (JSON.parse(text) as V) : undefined
    } catch {
      return undefined
    }
  }
}

function canonical(key: ResultKey): string {
  return (
    JSON.stringify([key.datasourceId, key.schemaVersion, key.database ?? null, key.timezone ?? null]) +
    (key.rollup === undefined ? '' : `rollup:${JSON.stringify(key.rollup)}`) +
    statementOf(key)
  )
}

/**
 * The statement half of a key: the SQL's digest, then the values as JSON (dates and bigints as
 * the drivers bind them). The digest is remembered per SQL text (the compiler hands out one
 * string per compiled shape), so a cache hit does not re-escape a long statement into its key.
 */
function statementOf({ sql, params }: ResultKey): string {
  let digest = digests.get(sql)
  if (digest === undefined) {
    digest = hashOf(sql)
    digests.set(sql, digest)
  }
  // a replacer costs a call per value: only values that need one (dates, bigints) get it
  return digest + (plain(params) ? JSON.stringify(params) : JSON.stringify(params, bound))
}
// (a Date reaches a replacer as its toJSON text: the holder still has the Date itself)
function bound(this: Record<string, unknown>, key: string, p: unknown): unknown {
  const raw = this[key]
  return raw instanceof Date ? { date: raw.toISOString() } : typeof p === 'bigint' ? String(p) : p
}

/** Whether JSON.stringify writes these values as the drivers bind them without a replacer. */
function plain(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(plain)
  return typeof value !== 'object' || value === null
    ? typeof value !== 'bigint'
    : Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every(plain)
}
const digests = new LRUCache<string, string>({ max: 10_000 })

const hashOf = (json: string): string => createHash('sha256').update(json).digest('base64url')
