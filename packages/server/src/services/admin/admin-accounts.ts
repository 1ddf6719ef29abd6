import { jwtVerify, SignJWT } from 'jose'
import type { PrincipalOf } from '../../auth/principal.js'
import { ApiError } from '../../errors.js'
import type { Keyring } from '../../security/keyring.js'
import { hashPassword, hashSecret, newId, newSecret, passwordProblem, verifyPassword } from '../../security/secrets.js'
import { isUniqueViolation, now, type Store } from '../../store/store.js'

export interface NewAdmin {
  readonly firstName: string
  readonly email: string
  readonly password: string
  readonly companyName: string
}

export interface AdminSession {
  readonly accessToken: string
  readonly refreshToken: string
  /** Seconds until accessToken expires. */
  readonly expiresIn: number
}

const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000
const ISSUER = 'strata'
const AUDIENCE = 'strata-admin'
/** The self-hosted instance has one organization; its fixed id makes bootstrap race-free. */
export const PRIMARY_ORGANIZATION_ID = 'primary'

/** Admin account bootstrap, sign-in (JWT), refresh and password reset (docs/administration.md). */
export class AdminAccounts {
  constructor(
    private readonly store: Store,
    private readonly keyring: Keyring,
    private readonly selfHosted: boolean,
    /** Seconds an access token stays valid (ADMIN_ACCESS_TTL_S, 3600 by default). */
    private readonly accessTtlSeconds = 3600,
  ) {}

  private assertSelfHosted(): void {
    if (!this.selfHosted) {
      throw new ApiError('SELFHOSTED_APP_ERROR', 500, 'This operation is only available on a self-hosted instance')
    }
  }

  async exists(): Promise<boolean> {
    const row = await this.store.db.selectFrom('admins').select('id').limit(1).executeTakeFirst()
    return row !== undefined
  }

  async create(input: NewAdmin): Promise<{ accessToken: string }> {
    this.assertSelfHosted()
    const problem = passwordProblem(input.password)
    if (problem) throw new ApiError('INVALID_REQUEST_BODY', 400, problem)
    const alreadyCreated = () =>
      new ApiError('INVALID_REQUEST', 400, 'The admin account is already created, please sign in')
    if (await this.exists()) throw alreadyCreated()
    const passwordHash = await hashPassword(input.password)
    const at = now()
    const adminId = newId()
    try {
      await this.store.db.transaction().execute(async (tx) => {
        await tx
          .insertInto('organizations')
          .values({ id: PRIMARY_ORGANIZATION_ID, name: input.companyName, created_at: at })
          .onConflict((oc) => oc.column('id').doUpdateSet({ name: input.companyName }))
          .execute()
        await tx
          .insertInto('admins')
          .values({
            id: adminId,
            organization_id: PRIMARY_ORGANIZATION_ID,
            first_name: input.firstName,
            email: input.email.toLowerCase(),
            password_hash: passwordHash,
            created_at: at,
            updated_at: at,
          })
          .execute()
      })
    } catch (err) {
      if (isUniqueViolation(err)) throw alreadyCreated()
      throw err
    }
    return { accessToken: await this.signAccessToken(adminId, PRIMARY_ORGANIZATION_ID) }
  }

  async signIn(email: string, password: string): Promise<AdminSession> {
    const admin = await this.store.db
      .selectFrom('admins')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst()
    if (!admin) throw new ApiError('USER_NOT_FOUND', 400, 'No admin account with this email')
    if (!(await verifyPassword(password, admin.password_hash))) {
      throw new ApiError('INVALID_CREDENTIALS', 400, 'The password is incorrect')
    }
    return this.openSession(admin.id, admin.organization_id)
  }

  /** Exchanges a refresh token for a new session; the old refresh token is spent. */
  async refresh(refreshToken: string): Promise<AdminSession> {
    const invalid = new ApiError('AUTHENTICATION_ERROR', 401, 'The refresh token is invalid or expired')
    const hash = hashSecret(refreshToken)
    const row = await this.store.db
      .selectFrom('refresh_tokens')
      .innerJoin('admins', 'admins.id', 'refresh_tokens.admin_id')
      .select(['refresh_tokens.id', 'refresh_tokens.expires_at', 'admins.id as adminId', 'admins.organization_id'])
      .where('refresh_tokens.token_hash', '=', hash)
      .executeTakeFirst()
    if (!row || row.expires_at <= now()) throw invalid
    const deleted = await this.store.db.deleteFrom('refresh_tokens').where('id', '=', row.id).executeTakeFirst()
    // A concurrent refresh with the same token already spent it.
    if (deleted.numDeletedRows === 0n) throw invalid
    return this.openSession(row.adminId, row.organization_id)
  }

  async verifyAccessToken(token: string): Promise<PrincipalOf<'admin'> | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.keyring.jwtKey, { issuer: ISSUER, audience: AUDIENCE })
      if (typeof payload.sub !== 'string' || typeof payload.pwv !== 'string') return undefined
      const admin = await this.store.db
        .selectFrom('admins')
        .select(['id', 'organization_id', 'password_hash'])
        .where('id', '=', payload.sub)
        .executeTakeFirst()
      // A password reset changes pwv, which retires every access token issued before it.
      if (!admin || passwordVersion(admin.password_hash) !== payload.pwv) return undefined
      return { kind: 'admin', adminId: admin.id, organizationId: admin.organization_id }
    } catch {
      return undefined
    }
  }

  async resetPassword(adminId: string, currentPassword: string, password: string): Promise<void> {
    this.assertSelfHosted()
    const admin = await this.store.db
      .selectFrom('admins')
      .select(['password_hash'])
      .where('id', '=', adminId)
      .executeTakeFirstOrThrow()
    if (!(await verifyPassword(currentPassword, admin.password_hash))) {
      throw new ApiError('RESET_PASSWORD_ERROR', 400, 'The current password is incorrect')
    }
    const problem = passwordProblem(password)
    if (problem) throw new ApiError('RESET_PASSWORD_ERROR', 400, problem)
    if (currentPassword === password) {
      throw new ApiError('RESET_PASSWORD_ERROR', 400, 'The new password must differ from the current one')
    }
    const passwordHash = await hashPassword(password)
    await this.store.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('admins')
        .set({ password_hash: passwordHash, updated_at: now() })
        .where('id', '=', adminId)
        .execute()
      await tx.deleteFrom('refresh_tokens').where('admin_id', '=', adminId).execute()
    })
  }

  private async openSession(adminId: string, organizationId: string): Promise<AdminSession> {
    const refreshToken = newSecret('rt_')
    await this.store.db
      .insertInto('refresh_tokens')
      .values({
        id: newId(),
        admin_id: adminId,
        token_hash: hashSecret(refreshToken),
        expires_at: new Date(Date.now() + REFRESH_TTL_MS).toISOString(),
        created_at: now(),
      })
      .execute()
    return {
      accessToken: await this.signAccessToken(adminId, organizationId),
      refreshToken,
      expiresIn: this.accessTtlSeconds,
    }
  }

  private async signAccessToken(adminId: string, organizationId: string): Promise<string> {
    const admin = await this.store.db
      .selectFrom('admins')
      .select('password_hash')
      .where('id', '=', adminId)
      .executeTakeFirstOrThrow()
    return new SignJWT({ org: organizationId, pwv: passwordVersion(admin.password_hash) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(adminId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${this.accessTtlSeconds}s`)
      .sign(this.keyring.jwtKey)
  }
}

/** A short, non-reversible fingerprint of the password hash. */
const passwordVersion = (passwordHash: string): string => hashSecret(passwordHash).slice(0, 12)
