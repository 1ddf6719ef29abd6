/**
 * The HTTP request the connector sends for a query: pure, so the parameter binding, settings
 * and version gates are tested without a server. Values travel only as query parameters
 * (`param_p0=…`, bound by the server into `{p0:Type}`); a server too old for them gets an
 * error, never spliced values.
 */
import { notSupported } from '../errors.js'
import { sameTimeZone } from '../shared/values.js'
import type { ExecuteOptions } from '../types.js'

/** Query parameters (`{name:Type}` + `param_name`): ClickHouse 19.11.3.11, 2019-07-18. */
export const MIN_VERSION_QUERY_PARAMS = [19, 11] as const
/** The `session_timezone` setting: ClickHouse 23.6. */
export const MIN_VERSION_SESSION_TIMEZONE = [23, 6] as const

export interface ServerInfo {
  readonly version: string
  /** The server's default time zone (`timezone()`). */
  readonly timezone: string
  readonly queryParams: boolean
  readonly sessionTimezone: boolean
  /** JSONCompactEachRowWithNamesAndTypes exists: one streamed request gives names, types and rows. */
  readonly namesAndTypes: boolean
}

export function versionAtLeast(version: string, [major, minor]: readonly [number, number]): boolean {
  const [a = 0, b = 0] = version.split('.').map((n) => Number.parseInt(n, 10) || 0)
  return a > major || (a === major && b >= minor)
}

export function serverInfo(version: string, timezone: string, namesAndTypes: boolean): ServerInfo {
  return {
    version,
    timezone,
    queryParams: versionAtLeast(version, MIN_VERSION_QUERY_PARAMS),
    sessionTimezone: versionAtLeast(version, MIN_VERSION_SESSION_TIMEZONE),
    namesAndTypes,
  }
}

/**
 * 64-bit and wider integers as JSON strings, read exactly (type-mapping.ts: a number when safe,
 * else the digits). A server's default: quoted up to 24.x, bare numbers in current versions,
 * which JSON.parse would round; the setting exists in every version.
 */
export const QUOTED_64BIT = { output_format_json_quote_64bit_integers: 1 } as const

export type ResultFormat = 'JSONCompactEachRowWithNamesAndTypes' | 'JSONEachRow'

export interface QueryRequest {
  readonly query: string
  readonly format: ResultFormat
  readonly query_params?: Record<string, unknown>
  readonly clickhouse_settings: Record<string, string | number>
  readonly query_id: string
}

/** ExecuteOptions.params[i] is bound to the placeholder named `p<i>`. */
export function queryParams(params: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  params.forEach((value, i) => {
    out[`p${i}`] = value === undefined ? null : value
  })
  return out
}

export function buildQueryRequest(
  sql: string,
  options: Pick<ExecuteOptions, 'params' | 'timeoutMs' | 'timezone'>,
  server: ServerInfo,
  queryId: string,
): QueryRequest {
  if (options.params.length > 0 && !server.queryParams) {
    throw notSupported(
      `ClickHouse ${server.version} cannot bind query parameters (they need ClickHouse ${MIN_VERSION_QUERY_PARAMS.join('.')} or later); the query was not run`,
    )
  }
  const settings: Record<string, string | number> = {
    // Whole seconds: 18.x reads this setting as an integer. The server cancels the query itself.
    max_execution_time: Math.max(1, Math.ceil(options.timeoutMs / 1000)),
    timeout_overflow_mode: 'throw',
    // Reads only: no INSERT, DDL or other write runs, whatever the statement (2: these
    // per-query settings may still be set). A profile already at readonly=1 refuses any
    // per-query setting, max_execution_time included, so this asks nothing more of the user.
    readonly: 2,
    ...QUOTED_64BIT,
  }
  if (options.timezone !== undefined && (server.sessionTimezone || !sameTimeZone(options.timezone, server.timezone))) {
    if (!server.sessionTimezone) {
      // Older servers render in their own zone only: fine when that is the zone asked for.
      throw notSupported(
        `ClickHouse ${server.version} cannot set a session time zone (it needs ClickHouse ${MIN_VERSION_SESSION_TIMEZONE.join('.')} or later); its server time zone is ${server.timezone}`,
      )
    }
    settings.session_timezone = options.timezone
  }
  const request: QueryRequest = {
    query: stripTrailing(sql),
    format: server.namesAndTypes ? 'JSONCompactEachRowWithNamesAndTypes' : 'JSONEachRow',
    clickhouse_settings: settings,
    query_id: queryId,
  }
  return options.params.length > 0 ? { ...request, query_params: queryParams(options.params) } : request
}

/** The client appends `FORMAT …`; a trailing semicolon would end the statement before it. */
export function stripTrailing(sql: string): string {
  return sql.replace(/[\s;]+$/, '')
}

/** Old servers (no JSONCompactEachRowWithNamesAndTypes): the result columns come from DESCRIBE. */
export function describeQuery(sql: string): string {
  return `DESCRIBE TABLE (\n${stripTrailing(sql)}\n)`
}
