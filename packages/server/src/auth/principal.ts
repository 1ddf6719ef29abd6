import type { GuestClaims } from '../services/guest-tokens/guest-tokens.js'

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
