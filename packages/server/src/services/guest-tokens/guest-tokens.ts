import { LRUCache } from 'lru-cache'
import type { GuestClaims, PrincipalOf, StudioClaim } from '../../auth/principal.js'
import { andThen, type MaybePromise } from '../../auth/token-cache.js'
import { ApiError, badRequest, type ErrorCode } from '../../errors.js'
import { canonicalFilterValues } from '../../query/date-range.js'
import type { FilterValueInput, GuestTokenRequest } from '../../schemas/guest-tokens.js'
import type { Keyring } from '../../security/keyring.js'
import { hashSecret, newSecret } from '../../security/secrets.js'
import { GroupCommit } from '../../store/group-commit.js'
import type { GuestTokenRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { DataAppIds } from '../embeds/embeds.js'

/** Whether a data app key is still live (not revoked); hot path, answered from memory. */
export type KeyLiveness = (keyId: string) => MaybePromise<boolean>

/** The ids of a data app a token may name (Embeds.ids); `fresh`: not from memory. */
export type DataAppIdsOf = (dataAppId: string, fresh: boolean) => Promise<DataAppIds>

const CLEANUP_EVERY_MS = 60_000
const SEALED_PREFIX = 'gt_1.'
const STORED_PREFIX = 'gt_'
/** Sealed tokens longer than this are stored instead, so that any token fits a request header. */
export const MAX_SEALED_TOKEN = 2_048
/**
 * The most a token may hold: its claims as JSON, params included. What a stored token writes
 * to the metadata store and what the verify cache holds per token are bounded by it.
 */
export const MAX_CLAIMS_BYTES = 64 * 1024
/** The verify cache's budget, weighed by what each entry holds (weigh, below). */
export const CACHE_BYTES = 32 * 1024 * 1024

/**
 * Guest tokens. A token is normally *sealed*: `gt_1.` and its claims encrypted and
 * authenticated with AES-256-GCM under a key derived from the server's master key, so minting
 * writes nothing and any instance sharing the key can check it. Claims too large for a sealed
 * token (long filter lists; at most MAX_CLAIMS_BYTES, else a 400) are *stored* instead: an opaque random `gt_…` string whose SHA-256
 * is saved with the claims through group commit (one fsync per batch, each caller answered
 * once its batch is durable). Either way a token is checked on every use against its expiry
 * and against the key that minted it, so revoking the key stops it at once; checking comes
 * from memory after the first use.
 */
export class GuestTokens {
  /**
   * token string → claims, for sealed and stored tokens alike; bounded by entries and by bytes,
   * each entry weighed by its token and claims (`weigh`), so large claims take their share.
   */
  private readonly cache: LRUCache<string, GuestClaims>
  private readonly writes: GroupCommit<GuestTokenRow>
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly store: Store,
    private readonly keyring: Keyring,
    private readonly keyLive: KeyLiveness,
    private readonly idsOf: DataAppIdsOf,
    cacheBytes = CACHE_BYTES,
  ) {
    this.cache = new LRUCache({ max: 50_000, maxSize: cacheBytes })
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

  /**
   * `workspaceId` (the v1 token, workspace-tokens.ts): the token loads only embeds of dashboards
   * of that workspace. `studio` (services/studio/preview-tokens.ts): the token loads that one
   * dashboard; its ids were checked against the dashboard by the caller.
   */
  async mint(
    app: PrincipalOf<'dataApp'>,
    request: GuestTokenRequest,
    scope: { readonly workspaceId?: string; readonly studio?: StudioClaim } = {},
  ): Promise<{ token: string }> {
    if (request.dataAppName !== app.dataAppName) {
      throw badRequest(`dataAppName: no data app ${request.dataAppName} for this key`)
    }
    const timezone = request.params?.timezone
    if (timezone !== undefined && !isTimeZone(timezone)) {
      throw badRequest(`params.timezone: ${JSON.stringify(timezone)} is not an IANA time zone name`)
    }
    if (!scope.studio) await this.checkIds(app, request.params)
    const createdAt = Date.now()
    const claims: GuestClaims = {
      organizationId: app.organizationId,
      dataAppId: app.dataAppId,
      dataAppName: app.dataAppName,
      keyId: app.keyId,
      clientId: request.clientId,
      params: withDefaults(request.params ?? {}),
      permissions: request.permissions ?? {},
      ...(request.datasourceName ? { datasourceName: request.datasourceName } : {}),
      ...(request.datamartName ? { datamartName: request.datamartName } : {}),
      ...(scope.workspaceId ? { workspaceId: scope.workspaceId } : {}),
      ...(scope.studio ? { studio: scope.studio } : {}),
      expiresAt: request.expiryTime === undefined ? null : createdAt + request.expiryTime,
    }
    const json = JSON.stringify(claims)
    // a JSON string of n UTF-16 units is at most 3n bytes: most mints never count them
    if (json.length > MAX_CLAIMS_BYTES / 3) {
      const bytes = Buffer.byteLength(json)
      if (bytes > MAX_CLAIMS_BYTES) {
        throw badRequest(
          `params: a guest token holds at most ${MAX_CLAIMS_BYTES} bytes of claims as JSON; these are ${bytes} bytes`,
        )
      }
    }
    const sealed = SEALED_PREFIX + this.keyring.sealToken(json)
    if (sealed.length <= MAX_SEALED_TOKEN) return { token: sealed }

    const token = newSecret(STORED_PREFIX)
    await this.writes.add({
      token_hash: hashSecret(token),
      data_app_id: app.dataAppId,
      claims: json,
      created_at: new Date(createdAt).toISOString(),
      expires_at: claims.expiresAt === null ? null : new Date(claims.expiresAt).toISOString(),
    })
    this.cache.set(token, claims, { size: weigh(token, json) })
    return { token }
  }

  /** What the verify cache holds now: tokens, and their weight in bytes (at most its budget). */
  get cached(): { tokens: number; bytes: number } {
    return { tokens: this.cache.size, bytes: this.cache.calculatedSize }
  }

  /**
   * Every id the token carries must be one of the data app's (docs/guest-tokens.md#request-fields: an invalid
   * dashboard ID is a 400): dashboardAppFilters[].dashboardId a dashboard it embeds, appFilters/rlsSettings[].metricId
   * a metric of those dashboards, allowedEmbeds[] an embed id or such a dashboard id. The first
   * that is not is named by its path, with the code the hosted service gives it
   * (docs/errors.md#guest-tokens-and-tenants): APP_FILTER_PARAM_ERROR for a filter, RLS_SETTINGS_PARAM_ERROR
   * for row-level security, INVALID_REQUEST_BODY for allowedEmbeds.
   */
  private async checkIds(app: PrincipalOf<'dataApp'>, params: GuestTokenRequest['params']): Promise<void> {
    if (!params) return
    const named: NamedId[] = []
    for (const [i, f] of (params.dashboardAppFilters ?? []).entries()) {
      named.push({
        path: `params.dashboardAppFilters[${i}].dashboardId`,
        id: f.dashboardId,
        code: 'APP_FILTER_PARAM_ERROR',
        known: (ids) => ids.dashboardIds.has(f.dashboardId),
      })
    }
    for (const [list, code] of [
      ['appFilters', 'APP_FILTER_PARAM_ERROR'],
      ['rlsSettings', 'RLS_SETTINGS_PARAM_ERROR'],
    ] as const) {
      for (const [i, f] of (params[list] ?? []).entries()) {
        named.push({
          path: `params.${list}[${i}].metricId`,
          id: f.metricId,
          code,
          known: (ids) => ids.metricIds.has(f.metricId),
        })
      }
    }
    for (const [i, id] of (params.allowedEmbeds ?? []).entries()) {
      const known = (ids: DataAppIds) => ids.embedIds.has(id) || ids.dashboardIds.has(id)
      named.push({ path: `params.allowedEmbeds[${i}]`, id, code: 'INVALID_REQUEST_BODY', known })
    }
    if (named.length === 0) return
    let ids = await this.idsOf(app.dataAppId, false)
    if (named.every((n) => n.known(ids))) return
    ids = await this.idsOf(app.dataAppId, true) // perhaps created on another instance since
    const bad = named.find((n) => !n.known(ids))
    if (bad) {
      const what = bad.path.endsWith('dashboardId')
        ? 'dashboard'
        : bad.path.endsWith('metricId')
          ? 'metric of a dashboard'
          : 'embed or dashboard'
      // an embed id where a dashboard id belongs is the usual mistake: say which id to send
      const hint =
        what === 'dashboard' && ids.embedIds.has(bad.id)
          ? ` (${JSON.stringify(bad.id)} is an embed id: name the dashboard, its dashboardId)`
          : ''
      throw new ApiError(
        bad.code,
        400,
        `${bad.path}: no ${what} ${JSON.stringify(bad.id)} in data app ${app.dataAppName}${hint}`,
      )
    }
  }

  /**
   * The claims of a live token, or undefined (unknown, altered, expired, revoked or cleaned up).
   * A token seen before, of a key known to be live, is answered from memory without a promise.
   */
  verify(token: string): MaybePromise<GuestClaims | undefined> {
    const claims = this.cache.get(token)
    return claims === undefined ? this.verifyUnseen(token) : this.live(token, claims)
  }

  private async verifyUnseen(token: string): Promise<GuestClaims | undefined> {
    const found = token.startsWith(SEALED_PREFIX) ? this.open(token) : await this.load(token)
    if (!found) return undefined
    this.cache.set(token, found.claims, { size: weigh(token, found.json) })
    return this.live(token, found.claims)
  }

  /** The claims while they are not expired and their key not revoked. */
  private live(token: string, claims: GuestClaims): MaybePromise<GuestClaims | undefined> {
    if (claims.expiresAt !== null && claims.expiresAt <= Date.now()) {
      this.cache.delete(token)
      return undefined
    }
    if (claims.keyId === null) return claims
    return andThen(this.keyLive(claims.keyId), (live) => (live ? claims : undefined))
  }

  private open(token: string): Found | undefined {
    if (token.length > MAX_SEALED_TOKEN) return undefined
    const json = this.keyring.openToken(token.slice(SEALED_PREFIX.length))
    return json === undefined ? undefined : { claims: JSON.parse(json) as GuestClaims, json }
  }

  private async load(token: string): Promise<Found | undefined> {
    if (!token.startsWith(STORED_PREFIX)) return undefined
    const row = await this.store.db
      .selectFrom('guest_tokens')
      .select('claims')
      .where('token_hash', '=', hashSecret(token))
      .executeTakeFirst()
    if (!row) return undefined
    // tokens stored before key ids were recorded carry none: they answer to expiry only
    return { claims: { keyId: null, ...(JSON.parse(row.claims) as Omit<GuestClaims, 'keyId'>) }, json: row.claims }
  }

  /** Removes expired stored tokens; returns how many. Runs every minute. */
  async cleanup(): Promise<number> {
    const result = await this.store.db
      .deleteFrom('guest_tokens')
      .where('expires_at', 'is not', null)
      .where('expires_at', '<=', new Date().toISOString())
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  }

  close(): void {
    clearInterval(this.timer)
  }
}

/** An id a token names, where it is, and the code that refuses it when the data app has no such id. */
interface NamedId {
  readonly path: string
  readonly id: string
  readonly code: Extract<ErrorCode, 'APP_FILTER_PARAM_ERROR' | 'RLS_SETTINGS_PARAM_ERROR' | 'INVALID_REQUEST_BODY'>
  readonly known: (ids: DataAppIds) => boolean
}

/** Claims as read from a token, with the JSON they were read from (which weighs them). */
interface Found {
  readonly claims: GuestClaims
  readonly json: string
}

/**
 * What a cache entry costs in memory, roughly: the token and the claims' JSON as UTF-16
 * strings (parsed claims take 1.5 to 2 times their JSON's length: measured on lists of short
 * and long strings), and the entry's own bookkeeping.
 */
const weigh = (token: string, json: string): number => 2 * (token.length + json.length) + 512

function withDefaults(params: NonNullable<GuestTokenRequest['params']>): GuestClaims['params'] {
  const values = <T extends { values: FilterValues }>(list: readonly T[] | undefined, name: string) =>
    list?.map((item, i) => ({ ...item, values: tokenValues(item.values, `params.${name}[${i}].values`) }))
  const rlsSettings = values(params.rlsSettings, 'rlsSettings')
  const appFilters = values(params.appFilters, 'appFilters')
  const dashboardAppFilters = values(params.dashboardAppFilters, 'dashboardAppFilters')
  return {
    ...params,
    ...(rlsSettings ? { rlsSettings } : {}),
    ...(appFilters ? { appFilters } : {}),
    ...(dashboardAppFilters
      ? { dashboardAppFilters: dashboardAppFilters.map((f) => ({ ...f, isShowOnUrl: f.isShowOnUrl ?? true })) }
      : {}),
  }
}

type FilterValues = Record<string, FilterValueInput>

/**
 * A token's filter values with every date range as `{ startDate, endDate }` (query/date-range.ts),
 * so the claims hold one spelling; a token's date range names both of its bounds.
 */
function tokenValues(values: FilterValues, where: string): FilterValues {
  const out = canonicalFilterValues(values, where)
  for (const [key, v] of Object.entries(out)) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) continue
    const keys = Object.keys(v)
    if (keys.length === 1 && (keys[0] === 'startDate' || keys[0] === 'endDate')) {
      throw badRequest(`${where}.${key}: a date range needs both startDate and endDate (or start and end)`)
    }
  }
  return out
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
