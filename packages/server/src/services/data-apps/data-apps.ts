import { randomBytes } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import type { PrincipalOf } from '../../auth/principal.js'
import { type MaybePromise, TokenCache } from '../../auth/token-cache.js'
import { ApiError } from '../../errors.js'
import { originAllowed } from '../../security/origins.js'
import { hashSecret, newId, newSecret } from '../../security/secrets.js'
import { paged } from '../../store/paging.js'
import type { ApiKeyRow } from '../../store/schema.js'
import { isUniqueViolation, now, type Store } from '../../store/store.js'
import type { InvalidationBus } from '../events/bus.js'

export interface DataAppSummary {
  readonly name: string
  readonly type: 'embedded'
  readonly createdAt: string
  readonly updatedAt: string
  readonly embedCount: number
  readonly embeds: readonly { name: string; embedId: string; createdAt: string; updatedAt: string }[]
}

export interface ApiKeySummary {
  /** The key's public identifier (its prefix), never the secret. */
  readonly key: string
  readonly name: string
  readonly description: string
  readonly createdAt: string
}

/**
 * Data apps and their API keys. A key is `sk_<id>_<secret>`: `sk_<id>` is its public
 * identifier (what lists show and revocation names), the whole string is hashed for lookup.
 */
export class DataApps {
  private readonly keyCache = new TokenCache<PrincipalOf<'dataApp'> & { keyId: string }>()
  /** key id → not revoked; exact on this instance and, with Redis, on all (10 s without). */
  private readonly liveKeys = new LRUCache<string, boolean>({ max: 100_000, ttl: 10_000 })
  private readonly whitelistCache = new LRUCache<string, readonly string[]>({
    max: 10_000,
    ttl: 10_000,
    maxSize: 16 * 1024 * 1024,
    sizeCalculation: (domains) => 64 + domains.reduce((n, d) => n + 2 * d.length + 32, 0),
  })

  constructor(
    private readonly store: Store,
    private readonly bus: InvalidationBus,
  ) {
    bus.on((event) => {
      if (event.kind === 'api-key') {
        this.keyCache.deleteWhere((p) => p.keyId === event.keyId)
        this.liveKeys.delete(event.keyId)
      }
      if (event.kind === 'data-app') {
        // a renamed data app: keys resolve to its new name from their next use
        this.keyCache.deleteWhere((p) => p.dataAppId === event.dataAppId)
        this.whitelistCache.delete(event.dataAppId)
        this.whitelistCache.delete('*')
      }
    })
  }

  async create(organizationId: string, name: string): Promise<{ name: string; key: string }> {
    const at = now()
    const id = newId()
    const first = newKey(id, 'default', 'Created with the data app')
    try {
      await this.store.db.transaction().execute(async (tx) => {
        await tx
          .insertInto('data_apps')
          .values({ id, organization_id: organizationId, name, created_at: at, updated_at: at })
          .execute()
        await tx.insertInto('api_keys').values(first.row).execute()
      })
    } catch (err) {
      if (isUniqueViolation(err)) throw new ApiError('DATA_APP_ALREADY_EXISTS', 400, `Data app ${name} already exists`)
      throw err
    }
    return { name, key: first.secret }
  }

  /**
   * Renames a data app. Keys, embeds and guest tokens refer to it by id, so they keep working;
   * a key's next request sees the new name (every instance forgets the old one).
   */
  async rename(organizationId: string, name: string, updateName: string): Promise<{ name: string }> {
    const app = await this.find(organizationId, name)
    if (updateName === name) return { name }
    try {
      await this.store.db
        .updateTable('data_apps')
        .set({ name: updateName, updated_at: now() })
        .where('id', '=', app.id)
        .execute()
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new ApiError('DATA_APP_ALREADY_EXISTS', 400, `Data app ${updateName} already exists`)
      }
      throw err
    }
    await this.bus.publish({ kind: 'data-app', dataAppId: app.id })
    return { name: updateName }
  }

  async list(organizationId: string): Promise<DataAppSummary[]> {
    const rows = await this.store.db
      .selectFrom('data_apps')
      .select(['id', 'name', 'created_at', 'updated_at'])
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('name')
      .execute()
    const embeds = await this.store.db
      .selectFrom('embeds')
      .innerJoin('data_apps', 'data_apps.id', 'embeds.data_app_id')
      .select(['embeds.data_app_id', 'embeds.name', 'embeds.embed_id', 'embeds.created_at', 'embeds.updated_at'])
      .where('data_apps.organization_id', '=', organizationId)
      .orderBy('embeds.created_at')
      .execute()
    return rows.map((r) => {
      const own = embeds
        .filter((e) => e.data_app_id === r.id)
        .map((e) => ({ name: e.name, embedId: e.embed_id, createdAt: e.created_at, updatedAt: e.updated_at }))
      return {
        name: r.name,
        type: 'embedded',
        createdAt: r.created_at,
        updatedAt: r.updated_at,
        embedCount: own.length,
        embeds: own,
      }
    })
  }

  async createApiKey(
    organizationId: string,
    dataAppName: string,
    name: string,
    description: string,
  ): Promise<{ key: string }> {
    const app = await this.find(organizationId, dataAppName)
    const { row, secret } = newKey(app.id, name, description)
    await this.store.db.insertInto('api_keys').values(row).execute()
    return { key: secret }
  }

  async listApiKeys(organizationId: string, dataAppName: string, page?: number): Promise<ApiKeySummary[]> {
    const app = await this.find(organizationId, dataAppName)
    const query = this.store.db
      .selectFrom('api_keys')
      .select(['key_id', 'name', 'description', 'created_at'])
      .where('data_app_id', '=', app.id)
      .where('revoked_at', 'is', null)
      .orderBy('created_at')
      .orderBy('key_id')
    const rows = await paged(query, page).execute()
    return rows.map((r) => ({ key: r.key_id, name: r.name, description: r.description, createdAt: r.created_at }))
  }

  async revokeApiKey(organizationId: string, dataAppName: string, keyId: string): Promise<{ key: string }> {
    const app = await this.find(organizationId, dataAppName)
    const result = await this.store.db
      .updateTable('api_keys')
      .set({ revoked_at: now() })
      .where('data_app_id', '=', app.id)
      .where('key_id', '=', keyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    if (result.numUpdatedRows === 0n) throw new ApiError('INVALID_REQUEST_BODY', 400, `No active API key ${keyId}`)
    await this.bus.publish({ kind: 'api-key', keyId })
    return { key: keyId }
  }

  /**
   * Resolves a secret data app key; hot path, served from memory after the first use. In memory
   * the entry is found by the key itself, as guest tokens are (no SHA-256 and no promise per
   * request); the store only ever sees and holds its hash.
   */
  verifyKey(secret: string): MaybePromise<PrincipalOf<'dataApp'> | undefined> {
    return this.keyCache.resolve(secret, async () => {
      const row = await this.store.db
        .selectFrom('api_keys')
        .innerJoin('data_apps', 'data_apps.id', 'api_keys.data_app_id')
        .select(['api_keys.key_id', 'data_apps.id', 'data_apps.name', 'data_apps.organization_id'])
        .where('api_keys.key_hash', '=', hashSecret(secret))
        .where('api_keys.revoked_at', 'is', null)
        .executeTakeFirst()
      return (
        row && {
          kind: 'dataApp' as const,
          organizationId: row.organization_id,
          dataAppId: row.id,
          dataAppName: row.name,
          keyId: row.key_id,
        }
      )
    })
  }

  /** Whether a key (by its `sk_…` id) exists and is not revoked; guest tokens ask on every use. */
  keyLive(keyId: string): MaybePromise<boolean> {
    const hit = this.liveKeys.get(keyId)
    if (hit !== undefined) return hit
    return this.store.db
      .selectFrom('api_keys')
      .select('revoked_at')
      .where('key_id', '=', keyId)
      .executeTakeFirst()
      .then((row) => {
        const live = row !== undefined && row.revoked_at === null
        this.liveKeys.set(keyId, live)
        return live
      })
  }

  /** The data app's allowed origins, from memory (kept exact on this instance, 10 s elsewhere). */
  async cachedWhitelist(dataAppId: string): Promise<readonly string[]> {
    const hit = this.whitelistCache.get(dataAppId)
    if (hit) return hit
    const domains = await this.whitelistDomains(dataAppId)
    this.whitelistCache.set(dataAppId, domains)
    return domains
  }

  /** Whether the data app's whitelist admits this origin. */
  async allows(dataAppId: string, origin: string): Promise<boolean> {
    return originAllowed(await this.cachedWhitelist(dataAppId), origin)
  }

  /** Whether any data app admits this origin (CORS preflights carry no token). */
  async anyAllows(origin: string): Promise<boolean> {
    let all = this.whitelistCache.get('*')
    if (!all) {
      const rows = await this.store.db.selectFrom('data_apps').select('whitelist_domains').execute()
      all = rows.flatMap((r) => JSON.parse(r.whitelist_domains) as string[])
      this.whitelistCache.set('*', all)
    }
    return originAllowed(all, origin)
  }

  async whitelistDomains(dataAppId: string): Promise<string[]> {
    const row = await this.store.db
      .selectFrom('data_apps')
      .select('whitelist_domains')
      .where('id', '=', dataAppId)
      .executeTakeFirstOrThrow()
    return JSON.parse(row.whitelist_domains) as string[]
  }

  async setWhitelistDomains(dataAppId: string, domains: readonly string[]): Promise<string[]> {
    const unique = [...new Set(domains.map((d) => d.toLowerCase()))]
    await this.store.db
      .updateTable('data_apps')
      .set({ whitelist_domains: JSON.stringify(unique), updated_at: now() })
      .where('id', '=', dataAppId)
      .execute()
    await this.bus.publish({ kind: 'data-app', dataAppId })
    return unique
  }

  /** A data app by name, or undefined. */
  async byName(organizationId: string, name: string): Promise<{ id: string; name: string } | undefined> {
    return this.store.db
      .selectFrom('data_apps')
      .select(['id', 'name'])
      .where('organization_id', '=', organizationId)
      .where('name', '=', name)
      .executeTakeFirst()
  }

  private async find(organizationId: string, name: string): Promise<{ id: string }> {
    const app = await this.store.db
      .selectFrom('data_apps')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('name', '=', name)
      .executeTakeFirst()
    if (!app) throw new ApiError('DATA_APP_NOT_FOUND', 400, `Data app ${name} not found`)
    return app
  }
}

function newKey(dataAppId: string, name: string, description: string): { row: ApiKeyRow; secret: string } {
  const keyId = `sk_${randomBytes(6).toString('hex')}`
  const secret = newSecret(`${keyId}_`)
  return {
    secret,
    row: {
      id: newId(),
      data_app_id: dataAppId,
      key_id: keyId,
      key_hash: hashSecret(secret),
      name,
      description,
      created_at: now(),
      revoked_at: null,
    },
  }
}
