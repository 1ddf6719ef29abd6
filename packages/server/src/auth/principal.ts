/** Who a request acts as, once its bearer token has been checked. */
export type Principal =
  | { readonly kind: 'admin'; readonly organizationId: string; readonly adminId: string }
  | { readonly kind: 'service'; readonly organizationId: string }
  | {
      readonly kind: 'dataApp'
      readonly organizationId: string
      readonly dataAppId: string
      readonly dataAppName: string
    }

export type PrincipalKind = Principal['kind']
export type PrincipalOf<K extends PrincipalKind> = Extract<Principal, { kind: K }>
