import type { PrincipalKind } from './principal.js'

/** What a bearer value looks like: a principal kind, or the admin's refresh token (a body field). */
export type TokenForm = PrincipalKind | 'refresh'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const JWT = /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/

/**
 * The kind a token has by its form, when that is recognisable: data app keys start `sk_`,
 * guest tokens `gt_`, refresh tokens `rt_`; an admin access token is a JWT; a service token
 * is a UUID unless its creator chose another value (then it is not recognised).
 */
export function tokenForm(token: string): TokenForm | undefined {
  if (token.startsWith('sk_')) return 'dataApp'
  if (token.startsWith('gt_')) return 'guest'
  if (token.startsWith('rt_')) return 'refresh'
  if (JWT.test(token)) return 'admin'
  if (UUID.test(token)) return 'service'
  return undefined
}

/** What a route of each kind takes, and where that token comes from. */
const TAKES: Record<PrincipalKind, string> = {
  admin: 'the admin access token (the JWT from POST /api/v2/admin-account/jwt)',
  service: 'the organization service token (from POST /api/v2/service-token) or the admin access token',
  dataApp: 'a data app API key (sk_…, from POST /api/v2/data-app or /api/v2/data-app/api-tokens)',
  guest: 'a guest token (gt_…, from POST /api/v2/guest-token/create)',
}

/** What was sent, and where that token belongs. */
const SENT: Record<TokenForm, string> = {
  admin: 'an admin access token was sent (it serves the /api/v2/service-token routes and the organization routes)',
  service:
    'the token sent has the form of a service token (it serves the organization routes: datasources, datamarts, workspaces, data apps, dashboard import and export)',
  dataApp: 'a data app API key was sent (it serves the data app routes: embeds, dashboards, queries, guest tokens)',
  guest: "a guest token was sent (it serves the web component's /api/v2/embed/runtime routes)",
  refresh: 'an admin refresh token was sent (it goes in the body of POST /api/v2/admin-account/jwt/refresh)',
}

const ADMIN_EXPIRED =
  'The admin access token is invalid or expired: refresh it (POST /api/v2/admin-account/jwt/refresh) or sign in again'

/** The 401 message for a missing token on a route of kind `kind`. */
export const missingTokenMessage = (kind: PrincipalKind): string =>
  `Missing credentials: this route takes ${TAKES[kind]}, sent as the header Authorization: Bearer <token>`

/**
 * The message for a token that did not verify on a route of kind `kind`: when its form says
 * it is a token of another kind, which kind the route takes and which was sent (never the
 * token itself); otherwise `invalid`.
 */
export function rejectedTokenMessage(kind: PrincipalKind, token: string, invalid: string): string {
  const form = tokenForm(token)
  if (form === undefined || form === kind) return invalid
  // the organization routes take the admin's access token too: one that fails has expired
  if (kind === 'service' && form === 'admin') return ADMIN_EXPIRED
  return `This route takes ${TAKES[kind]}; ${SENT[form]}`
}
