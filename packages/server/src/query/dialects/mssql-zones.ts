import { findWindows } from 'windows-iana'
import { badRequest } from '../../errors.js'

/**
 * IANA → Windows time zone names for SQL Server's `AT TIME ZONE`, which accepts only the names
 * in `sys.time_zone_info` (Windows names such as `W. Europe Standard Time`).
 *
 * The table is Unicode CLDR's `windowsZones` mapping as packaged by `windows-iana` (no
 * dependencies, the data only). A name CLDR files under an older alias (`Europe/Kyiv` under
 * `Europe/Kiev`, `Asia/Kolkata` under `Asia/Calcutta`) is looked up again under the name the
 * runtime's ICU canonicalises it to. A zone with no Windows equivalent (`Antarctica/Troll`) is
 * a 400 naming it: mapping it to some other zone of the same offset today would be wrong on the
 * days their rules differ.
 */
export function windowsZone(iana: string): string {
  const found = cached.get(iana) ?? lookUp(iana)
  if (cached.size >= 1000) cached.clear()
  cached.set(iana, found)
  return found
}

const cached = new Map<string, string>()

function lookUp(iana: string): string {
  const direct = findWindows(iana)[0]
  if (direct !== undefined) return direct
  const canonical = canonicalName(iana)
  const viaAlias = canonical === undefined ? undefined : findWindows(canonical)[0]
  if (viaAlias !== undefined) return viaAlias
  throw badRequest(
    `SQL Server has no time zone for "${iana}" (its AT TIME ZONE takes Windows zone names, and CLDR maps this IANA zone to none): use another zone, such as one with the same offset and rules`,
    { timezone: iana },
  )
}

function canonicalName(iana: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: iana }).resolvedOptions().timeZone
  } catch {
    return undefined
  }
}
