/**
 * The stand-in's `sys.time_zone_info`: the Windows time zone names SQL Server's `AT TIME ZONE`
 * accepts (https://learn.microsoft.com/en-us/sql/t-sql/queries/at-time-zone-transact-sql:
 * "the name of the destination time zone … listed in sys.time_zone_info"), each with an IANA
 * zone of the same rules, which PostgreSQL applies. Written out by hand (not from the CLDR table
 * the connector maps with), so a wrong mapping on our side shows as wrong rows here. Only a
 * selection: a name missing from it fails as an unknown name does on SQL Server.
 */
const WINDOWS_TO_IANA: Readonly<Record<string, string>> = {
  UTC: 'Etc/UTC',
  'GMT Standard Time': 'Europe/London',
  'W. Europe Standard Time': 'Europe/Berlin',
  'Central European Standard Time': 'Europe/Warsaw',
  'Central Europe Standard Time': 'Europe/Budapest',
  'Romance Standard Time': 'Europe/Paris',
  'FLE Standard Time': 'Europe/Kiev',
  'GTB Standard Time': 'Europe/Bucharest',
  'Russian Standard Time': 'Europe/Moscow',
  'Eastern Standard Time': 'America/New_York',
  'Central Standard Time': 'America/Chicago',
  'Mountain Standard Time': 'America/Denver',
  'US Mountain Standard Time': 'America/Phoenix',
  'Pacific Standard Time': 'America/Los_Angeles',
  'Alaskan Standard Time': 'America/Anchorage',
  'Hawaiian Standard Time': 'Pacific/Honolulu',
  'SA Pacific Standard Time': 'America/Bogota',
  'E. South America Standard Time': 'America/Sao_Paulo',
  'India Standard Time': 'Asia/Kolkata',
  'China Standard Time': 'Asia/Shanghai',
  'Tokyo Standard Time': 'Asia/Tokyo',
  'Singapore Standard Time': 'Asia/Singapore',
  'AUS Eastern Standard Time': 'Australia/Sydney',
  'New Zealand Standard Time': 'Pacific/Auckland',
}

const BY_LOWER = new Map(Object.entries(WINDOWS_TO_IANA).map(([w, iana]) => [w.toLowerCase(), iana]))

/** The IANA zone PostgreSQL applies for a Windows name (matched without case, as SQL Server's collation does), else undefined. */
export function ianaOfWindows(name: string): string | undefined {
  return BY_LOWER.get(name.toLowerCase())
}

/** SQL Server's Msg 9820, word for word. */
export const invalidZoneMessage = (name: string): string =>
  `The time zone parameter '${name}' provided to AT TIME ZONE clause is invalid.`
