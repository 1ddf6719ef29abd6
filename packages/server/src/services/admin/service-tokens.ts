import { randomUUID } from 'node:crypto'
import type { Transaction } from 'kysely'
import type { PrincipalOf } from '../../auth/principal.js'
import { TokenCache } from '../../auth/token-cache.js'
import { ApiError } from '../../errors.js'
import { hashSecret, newId } from '../../security/secrets.js'
import type { Database } from '../../store/schema.js'
import { isUniqueViolation, now, type Store } from '../../store/store.js'
import type { InvalidationBus } from '../events/bus.js'

type ServicePrincipal = PrincipalOf<'service'> & { readonly expiresAt: string | null }

/**
 * The organization's service token (one current token; rotation keeps the old one working
 * for a grace period). Stored as a SHA-256 hash; the plain token is returned once.
 */
export class ServiceTokens {
  private readonly cache = new TokenCache<ServicePrincipal>()

  constructor(
    private readonly store: Store,
    private readonly bus: InvalidationBus,
  ) {
    // a token replaced or rotated on another instance stops here at once, not after the cache TTL
    bus.on((event) => {
      if (event.kind === 'service-token') this.cache.deleteWhere((p) => p.organizationId === event.organizationId)
    })
  }

  /** Creates the service token, replacing (and revoking at once) any existing one. */
  async create(organizationId: string, token: string | undefined): Promise<{ key: string }> {
    return this.issue(organizationId, token, (tx) =>
      tx.deleteFrom('service_tokens').where('organization_id', '=', organizationId).execute(),
    )
  }

  /** Issues a new token; the current ones keep working for `graceSeconds` (0 = revoke now). */
  async rotate(organizationId: string, token: string | undefined, graceSeconds: number): Promise<{ key: string }> {
    const until = new Date(Date.now() + graceSeconds * 1000).toISOString()
    return this.issue(organizationId, token, async (tx) => {
      await tx
        .updateTable('service_tokens')
        .set({ expires_at: until })
        .where('organization_id', '=', organizationId)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', until)]))
        .execute()
      await tx
        .deleteFrom('service_tokens')
        .where('organization_id', '=', organizationId)
        .where('expires_at', '<=', now())
        .execute()
    })
  }

  async verify(token: string): Promise<PrincipalOf<'service'> | undefined> {
    const principal = await this.cache.resolve(hashSecret(token), async () => {
      const row = await this.store.db
        .selectFrom('service_tokens')
        .select(['organization_id', 'expires_at'])
        .where('token_hash', '=', hashSecret(token))
        .executeTakeFirst()
      return row && { kind: 'service' as const, organizationId: row.organization_id, expiresAt: row.expires_at }
    })
    if (!principal || (principal.expiresAt !== null && principal.expiresAt <= now())) return undefined
    return { kind: 'service', organizationId: principal.organizationId }
  }

  private async issue(
    organizationId: string,
    token: string | undefined,
    retire: (tx: Transaction<Database>) => Promise<unknown>,
  ): Promise<{ key: string }> {
    const key = token ?? randomUUID()
    try {
      await this.store.db.transaction().execute(async (tx) => {
        await retire(tx)
        await tx
          .insertInto('service_tokens')
          .values({
            id: newId(),
            organization_id: organizationId,
            token_hash: hashSecret(key),
            created_at: now(),
            expires_at: null,
          })
          .execute()
      })
    } catch (err) {
      if (isUniqueViolation(err)) throw new ApiError('INVALID_REQUEST_BODY', 400, 'This token value is already in use')
      throw err
    }
    await this.bus.publish({ kind: 'service-token', organizationId })
    return { key }
  }
}
