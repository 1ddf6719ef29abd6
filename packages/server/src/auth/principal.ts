import type { GuestTokenRequest } from '../schemas/guest-tokens.js'

/** Who a request acts as, once its bearer token has been checked. */
export type Principal =
  | { readonly kind: 'admin'; readonly organizationId: string; readonly adminId: string }
  | { readonly kind: 'service'; readonly organizationId: string }
  | {
      readonly kind: 'dataApp'
      readonly organizationId: string
      readonly dataAppId: string
      readonly dataAppName: string
      /** The key used (`sk_…` id); null when the server acts for a data app itself (the demo). */
      readonly keyId: string | null
    }
  | { readonly kind: 'guest'; readonly claims: GuestClaims }

export type PrincipalKind = Principal['kind']
export type PrincipalOf<K extends PrincipalKind> = Extract<Principal, { kind: K }>

/** What a guest token carries: everything the browser may not change. */
export interface GuestClaims {
  readonly organizationId: string
  readonly dataAppId: string
  readonly dataAppName: string
  /** The data app key that minted it (revoking the key revokes the token); null: the server's demo. */
  readonly keyId: string | null
  readonly clientId: string
  readonly params: NonNullable<GuestTokenRequest['params']>
  readonly permissions: NonNullable<GuestTokenRequest['permissions']>
  readonly datasourceName?: string
  readonly datamartName?: string
  /** A v1 token (`POST /api/v1/guest-token/create`) names a workspace: only embeds of its dashboards load. */
  readonly workspaceId?: string
  /**
   * A studio token (minted for the signed-in admin, no data app key): it loads this one dashboard
   * only, with the embed the data app's end users load (`author` false; none yet: read-only), or,
   * `author`, with the builder and the layout editor over the company's document.
   */
  readonly studio?: StudioClaim
  /** Epoch ms, or null: never expires. */
  readonly expiresAt: number | null
}

export interface StudioClaim {
  readonly dashboardRowId: string
  readonly author: boolean
}
