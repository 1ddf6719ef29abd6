/**
 * The report recipient policy's one rule, for the server and the web component alike (no
 * TypeBox here: the element imports it as a value).
 */

/**
 * The first of `recipients` that `allowed` (the load's `reports.recipients`: lower-cased
 * addresses and `@domain` entries) does not cover, or undefined: the server's check and the web
 * component's. Case is ignored; `@acme.com` covers ann@acme.com, not ann@eu.acme.com nor
 * ann@notacme.com.
 */
export function refusedRecipient(allowed: readonly string[], recipients: readonly string[]): string | undefined {
  const entries = new Set(allowed)
  return recipients.find((r) => {
    const address = r.trim().toLowerCase()
    const at = address.lastIndexOf('@')
    return !(entries.has(address) || (at > 0 && entries.has(address.slice(at))))
  })
}
