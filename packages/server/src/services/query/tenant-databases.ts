import { LRUCache } from 'lru-cache'

/** How long a datasource's list of databases is held before the next request reads it again. */
export const DATABASES_HOLD_MS = 60_000
/** How soon after a listing a clientId missing from the held list may have the list read again. */
export const DATABASES_RECHECK_MS = 5_000

/** A datasource's databases as one listing read them. */
export interface HeldDatabases {
  readonly names: readonly string[]
  /** Until when (epoch ms) a decision made on these names holds: the listing's start plus the hold. */
  readonly until: number
}

interface Entry {
  held?: { readonly names: readonly string[]; readonly set: ReadonlySet<string>; readonly until: number }
  /** The listing in flight, shared by every request that waits for one. */
  pending?: Promise<HeldDatabases>
  /** When the last listing started: a missing clientId lists again only DATABASES_RECHECK_MS after it. */
  lastStarted: number
}

export interface TenantDatabasesOptions {
  readonly holdMs: number
  readonly recheckMs: number
  /** The clock (epoch ms). */
  readonly now: () => number
}

/**
 * DATABASE tenancy's databases per datasource (docs/tenancy.md#database-tenancy), so that tenant
 * databases created or dropped while the server runs are seen without a restart, at a bounded
 * cost. A list is held for `holdMs` and read again by the first request after it. A clientId the
 * held list lacks has it read again, at most once per `recheckMs` per datasource; between two
 * such listings, a missing clientId is refused on the held list. Every listing is single-flight:
 * the requests that need one while it runs share it, so a storm of unknown clientIds lists at
 * most once per `recheckMs`. `forget` drops a datasource's list (its edit or removal); a
 * listing in flight then is used by those who waited for it, not kept.
 */
export class TenantDatabases {
  private readonly entries = new LRUCache<string, Entry>({ max: 1000 })
  private readonly options: TenantDatabasesOptions

  constructor(options: Partial<TenantDatabasesOptions> = {}) {
    this.options = {
      holdMs: options.holdMs ?? DATABASES_HOLD_MS,
      recheckMs: options.recheckMs ?? DATABASES_RECHECK_MS,
      now: options.now ?? (() => Date.now()),
    }
  }

  /** The databases to decide `clientId` on, listed by `list` when the held ones do not do. */
  async lookup(datasourceId: string, clientId: string, list: () => Promise<readonly string[]>): Promise<HeldDatabases> {
    const now = this.options.now()
    let entry = this.entries.get(datasourceId)
    if (!entry) {
      entry = { lastStarted: Number.NEGATIVE_INFINITY }
      this.entries.set(datasourceId, entry)
    }
    const held = entry.held
    if (held && now < held.until) {
      if (held.set.has(clientId)) return held
      if (entry.pending) return entry.pending
      if (now < entry.lastStarted + this.options.recheckMs) return held
    } else if (entry.pending) {
      return entry.pending
    }
    return this.read(datasourceId, entry, now, list)
  }

  /** Drops a datasource's held list: the next request lists its databases. */
  forget(datasourceId: string): void {
    this.entries.delete(datasourceId)
  }

  private read(
    datasourceId: string,
    entry: Entry,
    started: number,
    list: () => Promise<readonly string[]>,
  ): Promise<HeldDatabases> {
    entry.lastStarted = started
    const pending = (async () => {
      const names = await list()
      const held = { names, set: new Set(names), until: started + this.options.holdMs }
      if (this.entries.get(datasourceId) === entry) entry.held = held
      return held
    })()
    entry.pending = pending
    const settle = () => {
      if (entry.pending === pending) entry.pending = undefined
    }
    pending.then(settle, settle)
    return pending
  }
}
