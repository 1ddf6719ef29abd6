import { refusedRecipient } from '@strata/contract/report-recipients'
import type { GuestClaims } from '../../auth/principal.js'

/** An e-mail address as far as the policy needs one: a local part, one `@`, a domain. */
const ADDRESS = /^[^@\s]+@[^@\s]+$/

/** Entries a refusal names at most (a token may allow 100). */
const NAMED = 10

/**
 * Who a guest token may send email reports to: `params.reportRecipients` (addresses, and
 * `@domain` entries standing for every address of exactly that domain), else the token's own
 * `params.userIdentifier` when it is an e-mail address, else no one. Lower-cased, as report
 * recipients are stored.
 */
export function allowedRecipients(claims: GuestClaims): string[] {
  const listed = claims.params.reportRecipients
  if (listed) return [...new Set(listed.map((e) => e.trim().toLowerCase()))]
  const user = claims.params.userIdentifier?.trim().toLowerCase()
  return user !== undefined && ADDRESS.test(user) ? [user] : []
}

/** Why the token may not send to `recipients` (a 400's message, naming the address), or undefined. */
export function recipientsProblem(claims: GuestClaims, recipients: readonly string[]): string | undefined {
  const allowed = allowedRecipients(claims)
  const refused = refusedRecipient(allowed, recipients)
  if (refused === undefined) return undefined
  if (allowed.length === 0) {
    return `recipients: ${refused} is not allowed: this token may send reports to no one (the application allows recipients with the token's params.reportRecipients, or a params.userIdentifier that is an e-mail address)`
  }
  const named = allowed.slice(0, NAMED).join(', ')
  const more = allowed.length > NAMED ? ` and ${allowed.length - NAMED} more` : ''
  return `recipients: ${refused} is not allowed for this token; it may send reports to ${named}${more}`
}
