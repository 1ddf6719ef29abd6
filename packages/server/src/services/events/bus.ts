import { EventEmitter } from 'node:events'
import type { Redis } from 'ioredis'

/** What one instance tells the others to forget at once. */
export type Invalidation =
  | { readonly kind: 'embed'; readonly embedId: string }
  | { readonly kind: 'dashboard'; readonly dashboardRowId: string }
  /** One of a dashboard's rollups started or ended a build: which rollups are ready changed. */
  | { readonly kind: 'rollup'; readonly dashboardRowId: string }
  | { readonly kind: 'datasource'; readonly datasourceId: string }
  | { readonly kind: 'datamart'; readonly datamartId: string }
  | { readonly kind: 'workspace'; readonly workspaceId: string }
  | { readonly kind: 'api-key'; readonly keyId: string }
  | { readonly kind: 'data-app'; readonly dataAppId: string }
  | { readonly kind: 'service-token'; readonly organizationId: string }
  /** End users' self-serve rows changed: one tenant's, or (without clientId) a whole dashboard's. */
  | {
      readonly kind: 'tenant-state'
      readonly dashboardRowId: string
      readonly dataAppId?: string
      readonly clientId?: string
    }

const CHANNEL = 'strata:invalidate'

/**
 * Cache invalidation across instances. Local listeners run synchronously on `publish`; with
 * Redis, every other instance's listeners run as soon as the message arrives (pub/sub on a
 * dedicated connection). Without Redis a single instance is exact, and caches that other
 * instances could hold stale carry short TTLs.
 */
export class InvalidationBus {
  private readonly local = new EventEmitter()
  private subscriber: Redis | undefined
  private readonly origin = Math.random().toString(36).slice(2)

  constructor(private readonly redis: Redis | undefined) {
    this.local.setMaxListeners(100)
  }

  async start(): Promise<void> {
    if (!this.redis) return
    // no command timeout here: SUBSCRIBE waits for the connection, however slow the start
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true, commandTimeout: undefined })
    subscriber.on('error', () => {})
    subscriber.on('message', (_channel: string, message: string) => {
      try {
        const { origin, event } = JSON.parse(message) as { origin: string; event: Invalidation }
        if (origin !== this.origin) this.local.emit('event', event)
      } catch {
        // not ours
      }
    })
    await subscriber.subscribe(CHANNEL).catch(() => {})
    this.subscriber = subscriber
  }

  on(listener: (event: Invalidation) => void): void {
    this.local.on('event', listener)
  }

  async publish(event: Invalidation): Promise<void> {
    this.local.emit('event', event)
    await this.redis?.publish(CHANNEL, JSON.stringify({ origin: this.origin, event })).catch(() => {})
  }

  close(): void {
    this.subscriber?.disconnect()
  }
}
