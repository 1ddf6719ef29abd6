import type { Redis } from 'ioredis'
import type { Config } from '../config.js'
import { type Keyring, loadKeyring } from '../security/keyring.js'
import { openStore, type Store } from '../store/store.js'
import { AdminAccounts } from './admin/admin-accounts.js'
import { ServiceTokens } from './admin/service-tokens.js'
import { DataApps } from './data-apps/data-apps.js'

/** Everything the routes call into; built once per app, closed on shutdown. */
export interface Services {
  readonly config: Config
  readonly store: Store
  readonly keyring: Keyring
  readonly redis: Redis | undefined
  readonly admin: AdminAccounts
  readonly serviceTokens: ServiceTokens
  readonly dataApps: DataApps
  close(): Promise<void>
}

export async function createServices(config: Config): Promise<Services> {
  const keyring = loadKeyring(config.encryptionKey, config.dataDir)
  const store = await openStore(config)
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined
  return {
    config,
    store,
    keyring,
    redis,
    admin: new AdminAccounts(store, keyring, config.selfHosted),
    serviceTokens: new ServiceTokens(store),
    dataApps: new DataApps(store),
    async close() {
      redis?.disconnect()
      await store.close()
    },
  }
}

async function connectRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis')
  // Commands fail fast while Redis is away (no offline queue) and the client keeps
  // reconnecting in the background, so a Redis outage degrades instead of hanging requests.
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  })
  redis.on('error', () => {})
  await redis.connect().catch(() => {})
  return redis
}
