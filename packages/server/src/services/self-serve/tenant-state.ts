import type { Store } from '../../store/store.js'
import type { Dashboard } from '../dashboards/dashboards.js'
import type { Invalidation, InvalidationBus } from '../events/bus.js'
import { peerCache } from '../events/peer-cache.js'
import { type EndUserKey, readEndUserState } from './end-user-state.js'
import type { SavedLayouts } from './layout-grid.js'
import type { EndUserMetricStore, TenantMetrics } from './metric-store.js'
import type { Overlay } from './overlay.js'
import { type SavedView, savedView } from './view-shape.js'

/** Everything one token's key holds on a dashboard: what every runtime request overlays. */
export interface TenantState {
  readonly metrics: TenantMetrics
  readonly saved: SavedLayouts
  /** This key's views (the load shows them only with the views permission). */
  readonly views: readonly SavedView[]
  /** The overlay of each version of the company's dashboard this state was laid on (runtime.ts). */
  readonly overlays: WeakMap<Dashboard, Overlay>
}

type TenantScope = Extract<Invalidation, { kind: 'tenant-state' }>

const SEP = '\u0000'
const prefixOf = (scope: Omit<TenantScope, 'kind'>): string =>
  [scope.dashboardRowId, scope.dataAppId, scope.clientId].filter((p) => p !== undefined).join(SEP) + SEP

/**
 * The runtime's read of a tenant's self-serve state (docs/runtime-api.md#self-serve-metrics), cached per key so a load
 * of a dashboard with 10,000 tenants' rows costs what an untouched one does. Every write to the
 * four self-serve tables publishes `tenant-state` for its tenant (or dashboard) on the bus:
 * this instance forgets at once, others as the bus carries it (with Redis at once, without it
 * within the peer caches' staleness, docs/operations.md). A read in flight when its tenant
 * changes is dropped rather than kept.
 */
export class TenantStates {
  private readonly cache = peerCache<Promise<TenantState>>()

  constructor(
    private readonly store: Store,
    private readonly metrics: EndUserMetricStore,
    private readonly bus: InvalidationBus,
  ) {
    bus.on((event) => {
      if (event.kind === 'tenant-state') this.forget(prefixOf(event))
      else if (event.kind === 'dashboard') this.forget(prefixOf({ dashboardRowId: event.dashboardRowId }))
    })
  }

  get(key: EndUserKey): Promise<TenantState> {
    const id = prefixOf(key) + key.userIdentifier
    const cached = this.cache.get(id)
    if (cached) return cached
    const read = this.read(key)
    this.cache.set(id, read)
    read.catch(() => {
      if (this.cache.peek(id) === read) this.cache.delete(id)
    })
    return read
  }

  /** Called after every write: the tenant's (every user's) state, or all of a dashboard's. */
  changed(scope: Omit<TenantScope, 'kind'>): Promise<void> {
    return this.bus.publish({ kind: 'tenant-state', ...scope })
  }

  private async read(key: EndUserKey): Promise<TenantState> {
    const [metrics, state] = await Promise.all([
      this.metrics.forTenant(key, key.userIdentifier),
      readEndUserState(this.store.db, key, true),
    ])
    return { metrics, saved: state.saved, views: state.views.map(savedView), overlays: new WeakMap() }
  }

  private forget(prefix: string): void {
    for (const id of [...this.cache.keys()]) if (id.startsWith(prefix)) this.cache.delete(id)
  }
}
