/**
 * Origin matching for the embed runtime's CORS (docs/administration.md#5-whitelist-domains): a data app's whitelist-domains
 * entries are `host`, `*.host`, `host:port` or `*.host:port`, never a scheme.
 */

/** Whether a whitelist entry (`host`, `*.host`, `host:port`) admits an origin. */
export function originAllowed(entries: readonly string[], origin: string): boolean {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  const host = url.hostname.toLowerCase()
  const port = url.port
  return entries.some((entry) => {
    const [pattern, entryPort] = entry.toLowerCase().split(':') as [string, string | undefined]
    if (entryPort !== undefined && entryPort !== port) return false
    return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern
  })
}
