/**
 * The pure half of the chdb front (front.ts): how a request of ClickHouse's HTTP interface is
 * read (query text, `param_*` values, settings, database, credentials) and how an engine
 * exception is answered (status code, `X-ClickHouse-Exception-Code`, `Code: N. DB::Exception:
 * … (NAME) (version V)` body), as ClickHouse's own HTTP server does it. Written from
 * ClickHouse's HTTP interface documentation and its server source (HTTPHandler,
 * exceptionCodeToHTTPStatus), not from what our connector sends.
 */

/** URL parameters the HTTP handler reads itself; every other one (but `param_*`) is a setting. */
const NOT_SETTINGS = new Set([
  'query',
  'database',
  'default_format',
  'query_id',
  'user',
  'password',
  'quota_key',
  'session_id',
  'session_timeout',
  'session_check',
  'compress',
  'decompress',
  'buffer_size',
  'wait_end_of_query',
  'role',
  'stacktrace',
])

export interface ParsedRequest {
  /** The URL's `query` (a newline appended when present) followed by the body: the server concatenates them. */
  readonly query: string
  /** `param_<name>` values as sent (text in the Escaped format: the engine parses them as the placeholder's type). */
  readonly params: Record<string, string>
  /** Settings, in the order sent. */
  readonly settings: ReadonlyArray<readonly [string, string]>
  readonly database: string | undefined
  readonly defaultFormat: string
  readonly queryId: string | undefined
  readonly user: string
  readonly password: string
}

/** Credentials from (first match) `X-ClickHouse-User`/`-Key`, `Authorization: Basic`, `user`/`password` URL parameters; else user `default` without a password. */
function credentials(url: URL, headers: Readonly<Record<string, string | string[] | undefined>>) {
  const header = (name: string) => {
    const v = headers[name]
    return Array.isArray(v) ? v[0] : v
  }
  const xUser = header('x-clickhouse-user')
  if (xUser !== undefined) return { user: xUser, password: header('x-clickhouse-key') ?? '' }
  const basic = /^Basic\s+(.+)$/i.exec(header('authorization') ?? '')
  if (basic?.[1]) {
    const text = Buffer.from(basic[1], 'base64').toString('utf8')
    const colon = text.indexOf(':')
    return colon < 0 ? { user: text, password: '' } : { user: text.slice(0, colon), password: text.slice(colon + 1) }
  }
  return { user: url.searchParams.get('user') ?? 'default', password: url.searchParams.get('password') ?? '' }
}

export function parseRequest(
  method: string,
  url: URL,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  body: string,
): ParsedRequest {
  const params: Record<string, string> = {}
  const settings: [string, string][] = []
  for (const [name, value] of url.searchParams) {
    if (name.startsWith('param_')) params[name.slice('param_'.length)] = value
    else if (!NOT_SETTINGS.has(name)) settings.push([name, value])
  }
  // A GET request is read-only (readonly = 1) unless it says otherwise.
  if (method === 'GET' && !settings.some(([n]) => n === 'readonly')) settings.push(['readonly', '1'])
  const urlQuery = url.searchParams.get('query')
  return {
    query: `${urlQuery !== null && urlQuery !== '' ? `${urlQuery}\n` : ''}${body}`,
    params,
    settings,
    database: url.searchParams.get('database') ?? undefined,
    defaultFormat: url.searchParams.get('default_format') ?? 'TabSeparated',
    queryId: url.searchParams.get('query_id') ?? undefined,
    ...credentials(url, headers),
  }
}

/** A value as the engine reads a parameter: the Escaped (TSV) format. */
export function escaped(text: string): string {
  return text.replace(
    /[\\\t\n\r\0]/g,
    (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0' })[c]!,
  )
}

/** A setting's name, as the server accepts one (anything else is UNKNOWN_SETTING there too). */
export const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** A string literal: backslash and quote escaped. */
export const stringLiteral = (text: string): string => `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`

/** A database name as a quoted identifier. */
export const identifier = (name: string): string => `\`${name.replace(/[\\`]/g, (c) => `\\${c}`)}\``

/** exceptionCodeToHTTPStatus of ClickHouse's server, by the exception's name. */
const STATUS_BY_NAME: ReadonlyArray<readonly [number, readonly string[]]> = [
  [401, ['REQUIRED_PASSWORD']],
  [403, ['UNKNOWN_USER', 'WRONG_PASSWORD', 'AUTHENTICATION_FAILED', 'SET_NON_GRANTED_ROLE', 'ACCESS_DENIED']],
  [
    400,
    [
      'BAD_ARGUMENTS',
      'CANNOT_COMPILE_REGEXP',
      'CANNOT_PARSE_TEXT',
      'CANNOT_PARSE_ESCAPE_SEQUENCE',
      'CANNOT_PARSE_QUOTED_STRING',
      'CANNOT_PARSE_DATE',
      'CANNOT_PARSE_DATETIME',
      'CANNOT_PARSE_NUMBER',
      'CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING',
      'CANNOT_PARSE_IPV4',
      'CANNOT_PARSE_IPV6',
      'CANNOT_PARSE_INPUT_ASSERTION_FAILED',
      'CANNOT_PARSE_UUID',
      'DUPLICATE_COLUMN',
      'ILLEGAL_COLUMN',
      'UNKNOWN_ELEMENT_IN_AST',
      'UNKNOWN_TYPE_OF_AST_NODE',
      'THERE_IS_NO_COLUMN',
      'TOO_DEEP_AST',
      'TOO_BIG_AST',
      'UNEXPECTED_AST_STRUCTURE',
      'SYNTAX_ERROR',
      'INCORRECT_DATA',
      'TYPE_MISMATCH',
      'VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE',
    ],
  ],
  [
    404,
    [
      'UNKNOWN_TABLE',
      'UNKNOWN_FUNCTION',
      'UNKNOWN_IDENTIFIER',
      'UNKNOWN_TYPE',
      'UNKNOWN_STORAGE',
      'UNKNOWN_DATABASE',
      'UNKNOWN_SETTING',
      'UNKNOWN_DIRECTION_OF_SORTING',
      'UNKNOWN_AGGREGATE_FUNCTION',
      'UNKNOWN_FORMAT',
      'UNKNOWN_DATABASE_ENGINE',
      'UNKNOWN_TYPE_OF_QUERY',
      'UNKNOWN_ROLE',
    ],
  ],
  [413, ['QUERY_IS_TOO_LARGE']],
  [501, ['NOT_IMPLEMENTED']],
  [503, ['SOCKET_TIMEOUT', 'CANNOT_OPEN_FILE', 'CANNOT_SCHEDULE_TASK']],
  [411, ['HTTP_LENGTH_REQUIRED']],
  [408, ['TIMEOUT_EXCEEDED']],
  [415, ['UNSUPPORTED_MEDIA_TYPE']],
]

export interface ExceptionAnswer {
  readonly status: number
  readonly code: number
  readonly body: string
}

/**
 * An engine exception (`Code: 60. DB::Exception: … (UNKNOWN_TABLE)`) as the HTTP server answers
 * it: the status for its name, its code for the header, the text with the server's version.
 */
export function exceptionAnswer(message: string, version: string): ExceptionAnswer {
  const text = message.replace(/^Query failed: /, '').trim()
  const code = Number(/Code: (\d+)/.exec(text)?.[1] ?? 1000)
  const name = /\(([A-Z_0-9]+)\)\s*$/.exec(text)?.[1] ?? ''
  const status = STATUS_BY_NAME.find(([, names]) => names.includes(name))?.[0] ?? 500
  return { status, code, body: `${text} (version ${version})\n` }
}

/** An exception of our own making, in the engine's text form. */
export function exception(code: number, name: string, message: string): string {
  return `Code: ${code}. DB::Exception: ${message}. (${name})`
}

/** Content-Type of an answer in `format`, as the server sends it. */
export function contentType(format: string): string {
  if (/^JSON/.test(format)) return 'application/json; charset=UTF-8'
  if (/^(TabSeparated|TSV)/.test(format)) return 'text/tab-separated-values; charset=UTF-8'
  if (/^CSV/.test(format)) return 'text/csv; charset=UTF-8'
  return 'text/plain; charset=UTF-8'
}
