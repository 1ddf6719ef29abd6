import type { Redis } from 'ioredis'

export interface WindowCount {
  /** Hits in the current window, this one included. */
  readonly count: number
  /** Milliseconds until the window resets. */
  readonly resetMs: number
}

/** What `take` answers: whether the amount was taken, and the window's count after it. */
export interface Taken extends WindowCount {
  readonly taken: boolean
}

/** A fixed-window counter store. */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<WindowCount>
  /**
   * `hit`, answered at once, for a store in this process (no I/O): the rate limiter's hot path
   * then costs no promise.
   */
  hitSync?(key: string, windowMs: number): WindowCount
  /**
   * Adds `amount` to the window's count only if the sum stays within `max` (all or nothing,
   * atomically): a request that would exceed what is left is refused without using any of it.
   */
  take(key: string, windowMs: number, amount: number, max: number): Promise<Taken>
  close?(): void
}

/** Counters the memory store keeps at most, by default: some 20 MB. */
export const MEMORY_STORE_MAX_ENTRIES = 100_000

/**
 * One process's counters; windows start at the first hit of a client. Bounded: an entry is
 * dropped when its window ends (on its next hit, or by a sweep every minute), and when the map
 * holds `maxEntries` counters a new one evicts the least recently hit. Eviction can only make
 * that client's count start again, never refuse anyone; it needs more distinct clients in one
 * window than the bound, each of which has its own allowance anyway.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently
  // hit counter first.
  private readonly windows = new Map<string, { count: number; resetAt: number }>()
  /** The key last moved to the end of `windows`. */
  private newest: string | undefined
  private readonly sweeper: NodeJS.Timeout

  constructor(private readonly maxEntries = MEMORY_STORE_MAX_ENTRIES) {
    if (!(maxEntries >= 1)) throw new RangeError('maxEntries must be at least 1')
    this.sweeper = setInterval(() => this.sweep(), 60_000)
    this.sweeper.unref()
  }

  /** Counters held now. */
  get size(): number {
    return this.windows.size
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    return this.hitSync(key, windowMs)
  }

  hitSync(key: string, windowMs: number): WindowCount {
    const { count, resetMs } = this.add(key, windowMs, 1, Number.POSITIVE_INFINITY)
    return { count, resetMs }
  }

  async take(key: string, windowMs: number, amount: number, max: number): Promise<Taken> {
    return this.add(key, windowMs, amount, max)
  }

  private add(key: string, windowMs: number, amount: number, max: number): Taken {
    const at = Date.now()
    let window = this.windows.get(key)
    if (!window || window.resetAt <= at) {
      this.windows.delete(key)
      window = { count: 0, resetAt: at + windowMs }
      for (const oldest of this.windows.keys()) {
        if (this.windows.size < this.maxEntries) break
        this.windows.delete(oldest)
      }
      this.windows.set(key, window)
      this.newest = key
    } else if (key !== this.newest) {
      // to the end of the order (most recently hit); a client hitting again and again is
      // already there, and its hit is a lookup
      this.windows.delete(key)
      this.windows.set(key, window)
      this.newest = key
    }
    const taken = window.count + amount <= max
    if (taken) window.count += amount
    return { taken, count: window.count, resetMs: window.resetAt - at }
  }

  private sweep(): void {
    const at = Date.now()
    for (const [key, window] of this.windows) if (window.resetAt <= at) this.windows.delete(key)
  }

  close(): void {
    clearInterval(this.sweeper)
  }
}

// INCR, and start the window's expiry on its first hit; one round trip, atomic.
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { count, ttl }`

// INCRBY when the sum stays within ARGV[3], else nothing; the window as HIT starts it.
const TAKE = `
local amount = tonumber(ARGV[2])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current + amount > tonumber(ARGV[3]) then
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then ttl = tonumber(ARGV[1]) end
  return { 0, current, ttl }
end
local count = redis.call('INCRBY', KEYS[1], amount)
if count == amount then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { 1, count, ttl }`

/** Counters shared by every instance that uses the same Redis. */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'strata:rl:',
  ) {}

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [count, ttl] = (await this.redis.eval(HIT, 1, this.prefix + key, windowMs)) as [number, number]
    return { count, resetMs: ttl }
  }

  async take(key: string, windowMs: number, amount: number, max: number): Promise<Taken> {
    const [taken, count, ttl] = (await this.redis.eval(TAKE, 1, this.prefix + key, windowMs, amount, max)) as [
      number,
      number,
      number,
    ]
    return { taken: taken === 1, count, resetMs: ttl }
  }
}
