import { LRUCache } from 'lru-cache'
import type { PrincipalOf } from '../../auth/principal.js'
import { badRequest } from '../../errors.js'
import type { GuestTokenRequest } from '../../schemas/guest-tokens.js'
import { hashSecret, newSecret } from '../../security/secrets.js'
import { GroupCommit } from '../../store/group-commit.js'
import type { GuestTokenRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'

/** What a guest token carries: everything the browser may not change. */
export interface GuestClaims {
  readonly organizationId: string
  readonly dataAppId: string
  readonly dataAppName: string
  readonly clientId: string
  readonly params: NonNullable<GuestTokenRequest['params']>
  readonly permissions: NonNullable<GuestTokenRequest['permissions']>
  readonly datasourceName?: string
  readonly datamartName?: string
  /** Epoch ms, or null: never expires. */
  readonly expiresAt: number | null
}

const CLEANUP_EVERY_MS = 60_000

/**
 * Guest tokens: opaque random strings, stored as SHA-256 hashes with their claims. Minting
 * goes through group commit (one fsync per batch, each caller answered after its batch is
 * durable); checking comes from memory after the first use, and expiry is checked on every
 * use, so a token stops at its expiry whether or not the periodic cleanup has run.
 */
export class GuestTokens {
  private readonly cache = new LRUCache<string, GuestClaims>({ max: 100_000 })
  private readonly writes: GroupCommit<GuestTokenRow>
  private readonly timer: NodeJS.Timeout

  constructor(private readonly store: Store) {
    this.writes = new GroupCommit((rows) =>
      store.db
        .insertInto('guest_tokens')
        .values([...rows])
        .execute()
        .then(() => {}),
    )
    this.timer = setInterval(() => void this.cleanup().catch(() => {}), CLEANUP_EVERY_MS)
    this.timer.unref()
  }

  async mint(app: PrincipalOf<'dataApp'>, request: GuestTokenRequest): Promise<{ token: string }> {
    if (request.dataAppName !== app.dataAppName) {
      throw badRequest(`dataAppName: no data app ${request.dataAppName} for this key`)
    }
    const timezone = request.params?.timezone
    if (timezone !== undefined && !isTimeZone(timezone)) {
      throw badRequest(`params.timezone: ${JSON.stringify(timezone)} is not an IANA time zone name`)
    }
    const createdAt = Date.now()
    const claims: GuestClaims = {
      organizationId: app.organizationId,
      dataAppId: app.dataAppId,
      dataAppName: app.dataAppName,
      clientId: request.clientId,
      params: withDefaults(request.params ?? {}),
      permissions: request.permissions ?? {},
      ...(request.datasourceName ? { datasourceName: request.datasourceName } : {}),
      ...(request.datamartName ? { datamartName: request.datamartName } : {}),
      expiresAt: request.expiryTime === undefined ? null : createdAt + request.expiryTime,
    }
    const token = newSecret('gt_')
    const hash = hashSecret(token)
    await this.writes.add({
      token_hash: hash,
      data_app_id: app.dataAppId,
      claims: JSON.stringify(claims),
      created_at: new Date(createdAt).toISOString(),
      expires_at: claims.expiresAt === null ? null : new Date(claims.expiresAt).toISOString(),
    })
    this.cache.set(hash, claims)
    return { token }
  }

  /** The claims of a live token, or undefined (unknown, expired or cleaned up). */
  async verify(token: string): Promise<GuestClaims | undefined> {
    if (!token.startsWith('gt_')) return undefined
    const hash = hashSecret(token)
    let claims = this.cache.get(hash)
    if (!claims) {
      const row = await this.store.db
        .selectFrom('guest_tokens')
        .select('claims')
        .where('token_hash', '=', hash)
        .executeTakeFirst()
      if (!row) return undefined
      claims = JSON.parse(row.claims) as GuestClaims
      this.cache.set(hash, claims)
    }
    if (claims.expiresAt !== null && claims.expiresAt <= Date.now()) {
      this.cache.delete(hash)
      return undefined
    }
    return claims
  }

  /** Removes expired tokens; returns how many. Runs every minute. */
  async cleanup(): Promise<number> {
    const result = await this.store.db
      .deleteFrom('guest_tokens')
      .where('expires_at', 'is not', null)
      .where('expires_at', '<=', new Date().toISOString())
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  }

  /** Forgets the tokens of a data app (its key epoch changed or it was deleted). */
  forgetDataApp(dataAppId: string): void {
    for (const [hash, claims] of this.cache.entries()) if (claims.dataAppId === dataAppId) this.cache.delete(hash)
  }

  close(): void {
    clearInterval(this.timer)
  }
}

function withDefaults(params: NonNullable<GuestTokenRequest['params']>): GuestClaims['params'] {
  if (!params.dashboardAppFilters) return params
  return {
    ...params,
    dashboardAppFilters: params.dashboardAppFilters.map((f) => ({ ...f, isShowOnUrl: f.isShowOnUrl ?? true })),
  }
}

const zones = new Map<string, boolean>()
export function isTimeZone(name: string): boolean {
  let ok = zones.get(name)
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name })
      ok = name.includes('/') || name === 'UTC' || name === 'GMT'
    } catch {
      ok = false
    }
    if (zones.size < 1000) zones.set(name, ok)
  }
  return ok
}
