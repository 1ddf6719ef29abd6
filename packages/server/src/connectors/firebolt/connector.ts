/**
 * firebolt through the official firebolt-sdk (Node). A service account (client credentials
 * OAuth against the id endpoint), the engine URL resolved for the account and the engine, and
 * every statement bound on the server: `preparedStatementParamStyle: 'fb_numeric'` sends the
 * SQL as written (`$1…$n`) with the values in the `query_parameters` setting. One SDK connection
 * per database (the configured one and a bounded LRU for DATABASE tenancy); each statement is
 * an HTTP request carrying its own settings: `statement_timeout`, `time_zone`, `query_label`.
 * See README.md.
 */
import { randomUUID } from 'node:crypto'
import { Firebolt } from 'firebolt-sdk'
import { connectionError } from '../errors.js'
import { CANCEL_GRACE_MS, checkMaxRows, guarded, METADATA_TIMEOUT_MS, throwIfAborted } from '../shared/execution.js'
import { columnsListing, doubleQuoted, tablesOfListing } from '../shared/introspection.js'
import { PoolCache, tenantPoolLimit } from '../shared/pool-cache.js'
import { checkTimeZone } from '../shared/values.js'
import type {
  Connector,
  ConnectorOptions,
  ExecuteOptions,
  FireboltCredentials,
  QueryResult,
  TableInfo,
} from '../types.js'
import { FIREBOLT_ERRORS } from './errors.js'
import { StrataHttpClient } from './http-client.js'
import { convertValue, dataTypeOf, isNullable } from './type-mapping.js'

type Connection = Awaited<ReturnType<ReturnType<typeof Firebolt>['connect']>>

/** The SDK's default: its id endpoint is derived from it (api.* → id.*). */
const DEFAULT_API_ENDPOINT = 'api.app.firebolt.io'
/** The SDK logs through console.log; we log nothing of it. */
const SILENT_LOGGER = { info: () => undefined }

/** One database: its SDK connection (opened on first use) and the HTTP client under it. */
interface Session {
  readonly database: string
  readonly client: StrataHttpClient
  connection: Promise<Connection> | undefined
}

interface RunSettings {
  readonly timeoutMs: number
  readonly signal?: AbortSignal | undefined
  readonly timezone?: string | undefined
}

interface Rows {
  readonly columns: readonly { readonly name: string; readonly type: string }[]
  readonly rows: Record<string, unknown>[]
}

export class FireboltConnector implements Connector {
  readonly dialect = 'firebolt' as const
  readonly #credentials: FireboltCredentials
  readonly #options: ConnectorOptions
  readonly #sessions: PoolCache<Session>

  constructor(credentials: FireboltCredentials, options: ConnectorOptions) {
    this.#credentials = credentials
    this.#options = options
    this.#sessions = new PoolCache<Session>({
      max: tenantPoolLimit(options),
      create: (database) => ({ database, client: new StrataHttpClient(), connection: undefined }),
      close: async (session) => {
        session.client.destroy()
      },
    })
  }

  async test(): Promise<void> {
    await this.#sessions.use(this.#credentials.database, async (session) => {
      session.connection = undefined // a test always authenticates again
      await this.#query(session, 'SELECT 1 AS ok', [], { timeoutMs: this.#options.connectTimeoutMs })
    })
  }

  async databases(): Promise<string[]> {
    const { rows } = await this.#sessions.use(this.#credentials.database, (session) =>
      this.#query(session, 'SELECT catalog_name FROM information_schema.catalogs ORDER BY catalog_name', [], {
        timeoutMs: METADATA_TIMEOUT_MS,
      }),
    )
    return rows.map((r) => String(r.catalog_name))
  }

  async introspect(database?: string): Promise<TableInfo[]> {
    const db = database ?? this.#credentials.database
    const listing = columnsListing({
      placeholder: (i) => `$${i + 1}`,
      quote: doubleQuoted,
      catalog: { equals: db },
      schema: { notIn: ['information_schema', 'pg_catalog'] },
    })
    const { rows } = await this.#sessions.use(checkName(db, 'database'), (session) =>
      this.#query(session, listing.sql, listing.params, { timeoutMs: METADATA_TIMEOUT_MS }),
    )
    return tablesOfListing(rows, {
      dataType: (nativeType) => dataTypeOf(nativeType),
      nullable: (nativeType, row) => isNullable(nativeType, String(row.is_nullable)),
    })
  }

  async execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    const maxRows = checkMaxRows(options.maxRows)
    if (options.timezone !== undefined) checkTimeZone(options.timezone)
    throwIfAborted(options.signal)
    const database = checkName(options.database ?? this.#credentials.database, 'database')
    const { columns, rows } = await this.#sessions.use(database, (session) =>
      this.#query(session, limited(sql, maxRows), options.params, options),
    )
    return {
      columns: columns.map((c) => ({ name: c.name, dataType: dataTypeOf(c.type) })),
      rows: rows.slice(0, maxRows),
      truncated: rows.length > maxRows,
    }
  }

  async close(): Promise<void> {
    await this.#sessions.closeAll()
  }

  /** The session's SDK connection: authenticated and its engine resolved within the connect timeout. */
  async #connection(session: Session): Promise<Connection> {
    session.connection ??= this.#open(session)
    const opening = session.connection
    try {
      return await opening
    } catch (err) {
      if (session.connection === opening) session.connection = undefined
      throw err
    }
  }

  #open(session: Session): Promise<Connection> {
    const c = this.#credentials
    return guarded(
      {
        timeoutMs: this.#options.connectTimeoutMs,
        cancelGraceMs: 0,
        connecting: true,
        errors: FIREBOLT_ERRORS,
        secrets: [c.client_secret],
        cancel: () => session.client.abortAll(),
      },
      async () => {
        const firebolt = Firebolt({
          apiEndpoint: (c.apiEndpoint ?? DEFAULT_API_ENDPOINT).replace(/\/+$/, ''),
          dependencies: { logger: SILENT_LOGGER, httpClient: session.client },
        })
        // The SDK writes `USE DATABASE "<name>"` / `USE ENGINE "<name>"` itself: checkName first.
        return firebolt.connect({
          auth: { client_id: c.client_id, client_secret: c.client_secret },
          account: c.account_name,
          database: checkName(session.database, 'database'),
          engineName: checkName(c.engine_name, 'engine'),
          preparedStatementParamStyle: 'fb_numeric',
          useCache: false,
        })
      },
    )
  }

  /**
   * One statement through the execution core. The server stops it at `statement_timeout`;
   * our deadline (or the caller's signal) sends `CANCEL QUERY WHERE query_id = …` for the query
   * carrying our `query_label`, whose request then answers with the cancellation; if it does not
   * within DESTROY_GRACE_MS, its HTTP request is aborted.
   */
  async #query(session: Session, sql: string, params: readonly unknown[], settings: RunSettings): Promise<Rows> {
    const connection = await this.#connection(session)
    const label = `strata-${randomUUID()}`
    return guarded(
      {
        timeoutMs: settings.timeoutMs,
        signal: settings.signal,
        cancelGraceMs: CANCEL_GRACE_MS,
        errors: FIREBOLT_ERRORS,
        secrets: [this.#credentials.client_secret],
        cancel: () => cancelOnServer(connection, label),
        // The server did not answer the cancel: abort the request (the SDK's abort also closes
        // the session's kept-alive sockets, so the session is opened again afterwards).
        drop: () => session.client.abortWhere((url) => url.includes(`query_label=${label}`)),
        release: ({ broken }) => {
          if (broken) session.connection = undefined // authenticate and resolve the engine again
        },
      },
      async () => {
        const statement = await connection.execute(sql, {
          // firebolt-sdk 1.13.1 builds fb_numeric options as `{ settings: {…, query_parameters}, ...options }`,
          // so any `settings` of ours would replace its query_parameters: we pass them in ours, in the
          // SDK's own shape ([{ name: '$1', value }]), and no `parameters`.
          settings: {
            query_parameters: queryParameters(params),
            statement_timeout: Math.max(1, Math.ceil(settings.timeoutMs)),
            query_label: label,
            ...(settings.timezone === undefined ? {} : { time_zone: settings.timezone }),
          },
          response: { hydrateRow: (row) => row },
        })
        const { data, meta } = await statement.fetchResult()
        const columns = meta.map((m) => ({ name: m.name, type: m.type }))
        const rows = (data as unknown[]).map((row) => toRecord(row, columns))
        return { columns, rows }
      },
    )
  }
}

/** `query_parameters` as the SDK writes it for fb_numeric: `[{ "name": "$1", "value": … }]`. */
export function queryParameters(params: readonly unknown[]): string {
  return JSON.stringify(params.map((value, i) => ({ name: `$${i + 1}`, value: paramValue(value) })))
}

function paramValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'bigint') return value.toString()
  return value ?? null
}

function toRecord(row: unknown, columns: Rows['columns']): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  columns.forEach((c, i) => {
    const value = Array.isArray(row) ? row[i] : (row as Record<string, unknown>)[c.name]
    out[c.name] = convertValue(value, c.type)
  })
  return out
}

/**
 * Caps the rows the engine produces: the statement becomes a subquery under a LIMIT of our own
 * validated integer (`maxRows + 1`, so `truncated` can be told). The SDK reads a result whole
 * (no streaming under fb_numeric), so the cap must be in the SQL.
 */
export function limited(sql: string, maxRows: number): string {
  const body = sql.trim().replace(/;+\s*$/, '')
  return `SELECT * FROM (\n${body}\n) AS strata_result LIMIT ${maxRows + 1}`
}

/**
 * A database or engine name the SDK will write between double quotes without escaping
 * (`USE DATABASE "<name>"`): refused unless it has no `"` and no control character.
 */
export function checkName(name: string, what: 'database' | 'engine'): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (name.length === 0 || name.length > 255 || /["\u0000-\u001f\u007f]/.test(name)) {
    throw connectionError(
      `the ${what} name ${JSON.stringify(name.slice(0, 64))} cannot be selected (no quotes or control characters)`,
    )
  }
  return name
}

/**
 * Documented cancel (reference-sql/commands/queries/cancel): find our statement's query_id by
 * its label in information_schema.engine_running_queries, then `CANCEL QUERY WHERE query_id =
 * '<id>'`. Fire and forget: the statement's own request is already aborted.
 */
function cancelOnServer(connection: Connection, label: string): void {
  void (async () => {
    const found = await connection.execute(
      'SELECT query_id FROM information_schema.engine_running_queries WHERE query_label = $1',
      { settings: { query_parameters: queryParameters([label]) }, response: { hydrateRow: (row) => row } },
    )
    const { data } = await found.fetchResult()
    for (const row of data as unknown[]) {
      const id = Array.isArray(row) ? row[0] : (row as Record<string, unknown>).query_id
      // The id is the server's; spliced only when it is plainly an identifier (CANCEL takes no parameter).
      if (typeof id === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(id)) {
        await connection.execute(`CANCEL QUERY WHERE query_id = '${id}'`, {
          settings: { query_parameters: '[]' },
        })
      }
    }
  })().catch(() => undefined)
}
