/**
 * trino over its client REST protocol (client.ts), with Node's fetch: no driver, no pools (HTTP
 * keep-alive is the connection reuse). The session travels as headers on each POST:
 * X-Trino-User, X-Trino-Catalog, X-Trino-Schema (DATABASE tenancy: the unit is a schema of the
 * catalog), X-Trino-Time-Zone (the session time zone), X-Trino-Session query_max_execution_time
 * (the server-side limit). Values are typed literals (literals.ts): `EXECUTE IMMEDIATE '<sql>'
 * USING …` on Trino 418+, else the SQL as an X-Trino-Prepared-Statement and `EXECUTE … USING …`.
 */

import { Agent } from 'undici'
import { ApiError } from '../../errors.js'
import type { CredentialsByType } from '../credentials/schemas.js'
import { connectionError } from '../errors.js'
import { CANCEL_GRACE_MS, checkMaxRows, guarded, METADATA_TIMEOUT_MS, throwIfAborted } from '../shared/execution.js'
import { columnsListing, doubleQuoted, tablesOfListing } from '../shared/introspection.js'
import { checkTimeZone } from '../shared/values.js'
import type { Connector, ConnectorOptions, ExecuteOptions, QueryResult, TableInfo } from '../types.js'
import { call, cancelQuery, NotTrinoError, type QueryResults, sameOrigin, TrinoQueryError } from './client.js'
import { TRINO_ERRORS } from './errors.js'
import { stringLiteral, trinoLiteral } from './literals.js'
import { convertValue, dataTypeOf } from './type-mapping.js'

export type TrinoCredentials = CredentialsByType['trino']

/** EXECUTE IMMEDIATE exists from Trino 418 (https://trino.io/docs/current/sql/execute-immediate.html). */
export const MIN_VERSION_EXECUTE_IMMEDIATE = 418
const PREPARED_NAME = 'strata_statement'
/** Schemas already checked to exist (DATABASE tenancy), at most this many remembered. */
const MAX_KNOWN_SCHEMAS = 1000

interface ServerInfo {
  readonly version: string
  readonly executeImmediate: boolean
}

interface Run {
  readonly sql: string
  readonly params: readonly unknown[]
  readonly timeoutMs: number
  readonly maxRows: number
  readonly schema?: string | undefined
  readonly timezone?: string | undefined
  readonly signal?: AbortSignal | undefined
}

/** A header value must be visible ASCII: anything else would not travel unchanged. */
function headerValue(field: string, value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value))
    throw connectionError(`${field} must be printable ASCII to travel as a Trino header`)
  return value
}

/** Trino's Duration syntax (airlift): whole milliseconds. */
const duration = (ms: number) => `${Math.max(1, Math.ceil(ms))}ms`

export class TrinoConnector implements Connector {
  readonly dialect = 'trino' as const
  readonly #credentials: TrinoCredentials
  readonly #options: ConnectorOptions
  readonly #base: string
  readonly #knownSchemas = new Set<string>()
  #server: Promise<ServerInfo> | undefined
  #closed = false
  /** Connections that trust the private CA of tlsCaCertificate (docs/datasources.md#tls); else Node's own. */
  readonly #dispatcher: Agent | undefined

  constructor(credentials: TrinoCredentials, options: ConnectorOptions) {
    this.#credentials = credentials
    this.#options = options
    const host =
      credentials.host.includes(':') && !credentials.host.startsWith('[') ? `[${credentials.host}]` : credentials.host
    this.#base = `${credentials.ssl ? 'https' : 'http'}://${host}:${credentials.port}`
    this.#dispatcher =
      credentials.tlsCaCertificate === undefined
        ? undefined
        : new Agent({ connect: { ca: credentials.tlsCaCertificate } })
  }

  async test(): Promise<void> {
    this.#server = undefined
    try {
      // bounded like a connection: the API answers within its connect timeout, even on a busy cluster
      const timeoutMs = this.#options.connectTimeoutMs
      await this.#run({ sql: 'SELECT 1', params: [], timeoutMs, maxRows: 1 })
      // Trino may accept a session schema it does not have until a statement uses it: check it here
      const schema = this.#credentials.schema
      if (schema !== undefined) await this.#checkSchema(schema, undefined, true, timeoutMs)
    } catch (err) {
      // every failure of the connection test is the connection's
      if (err instanceof ApiError && err.code !== 'DATASOURCE_CONNECTION_ERROR' && err.status === 400) {
        throw connectionError(err.message, err)
      }
      throw err
    }
  }

  async databases(): Promise<string[]> {
    const { rows } = await this.#run({
      sql: "SELECT schema_name FROM information_schema.schemata WHERE catalog_name = ? AND schema_name <> 'information_schema' ORDER BY schema_name",
      params: [this.#credentials.catalog],
      timeoutMs: METADATA_TIMEOUT_MS,
      maxRows: 100_000,
    })
    return rows.map((r) => String(r.schema_name))
  }

  async introspect(database?: string): Promise<TableInfo[]> {
    const schema = database ?? this.#credentials.schema
    const listing = columnsListing({
      placeholder: () => '?',
      quote: doubleQuoted,
      catalog: { equals: this.#credentials.catalog },
      schema: schema === undefined ? { notIn: ['information_schema'] } : { equals: schema },
    })
    const { rows } = await this.#run({
      sql: listing.sql,
      params: listing.params,
      timeoutMs: METADATA_TIMEOUT_MS,
      maxRows: 1_000_000,
      schema,
    })
    return tablesOfListing(rows, { dataType: (nativeType) => dataTypeOf(nativeType) })
  }

  async execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    const maxRows = checkMaxRows(options.maxRows)
    if (options.timezone !== undefined) checkTimeZone(options.timezone)
    throwIfAborted(options.signal)
    const result = await this.#run({
      sql,
      params: options.params,
      timeoutMs: options.timeoutMs,
      maxRows,
      schema: options.database,
      timezone: options.timezone,
      signal: options.signal,
    })
    return result
  }

  async close(): Promise<void> {
    this.#closed = true
    await this.#dispatcher?.close()
  }

  /** Version, probed once (again after a failure): it picks how parameters travel. */
  #probe(): Promise<ServerInfo> {
    if (!this.#server) {
      const probe = this.#info()
      this.#server = probe
      probe.catch(() => {
        if (this.#server === probe) this.#server = undefined
      })
    }
    return this.#server
  }

  async #info(): Promise<ServerInfo> {
    const controller = new AbortController()
    return guarded(
      {
        timeoutMs: this.#options.connectTimeoutMs,
        cancelGraceMs: 0,
        connecting: true,
        errors: TRINO_ERRORS,
        secrets: [this.#credentials.password],
        cancel: () => controller.abort(),
      },
      async () => {
        const info = (await call(
          `${this.#base}/v1/info`,
          { method: 'GET', headers: this.#authHeaders(), dispatcher: this.#dispatcher },
          controller.signal,
        )) as { nodeVersion?: { version?: unknown } } | null
        const version = info?.nodeVersion?.version
        if (typeof version !== 'string') throw new NotTrinoError()
        const major = Number(/^\d+/.exec(version)?.[0] ?? Number.NaN)
        return { version, executeImmediate: major >= MIN_VERSION_EXECUTE_IMMEDIATE }
      },
    )
  }

  #authHeaders(): Record<string, string> {
    const c = this.#credentials
    if (c.password === undefined) return {}
    return { Authorization: `Basic ${Buffer.from(`${c.user}:${c.password}`).toString('base64')}` }
  }

  /** Refused before anything is sent: what Trino would refuse, or what could not travel. */
  #checkCredentials(): void {
    if (this.#closed) throw connectionError('the connector is closed')
    const c = this.#credentials
    if (c.password !== undefined && !c.ssl) {
      throw connectionError('Trino accepts a password over https only: enable ssl')
    }
  }

  /** A schema named by DATABASE tenancy must exist in the catalog: else it is a connection error. */
  async #checkSchema(
    schema: string,
    signal: AbortSignal | undefined,
    always = false,
    timeoutMs = METADATA_TIMEOUT_MS,
  ): Promise<void> {
    if (!always && (schema === this.#credentials.schema || this.#knownSchemas.has(schema))) return
    const { rows } = await this.#run({
      sql: 'SELECT count(*) AS n FROM information_schema.schemata WHERE catalog_name = ? AND schema_name = ?',
      params: [this.#credentials.catalog, schema],
      timeoutMs,
      maxRows: 1,
      signal,
    })
    if (Number(rows[0]?.n) !== 1) {
      throw connectionError(`schema "${schema}" does not exist in catalog "${this.#credentials.catalog}"`)
    }
    if (this.#knownSchemas.size >= MAX_KNOWN_SCHEMAS) this.#knownSchemas.clear()
    this.#knownSchemas.add(schema)
  }

  async #run(run: Run): Promise<QueryResult> {
    this.#checkCredentials()
    const server = await this.#probe()
    const schema = run.schema ?? this.#credentials.schema
    if (run.schema !== undefined) await this.#checkSchema(run.schema, run.signal)
    const c = this.#credentials
    const headers: Record<string, string> = {
      ...this.#authHeaders(),
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Trino-User': headerValue('user', c.user),
      'X-Trino-Source': 'strata',
      'X-Trino-Catalog': headerValue('catalog', c.catalog),
      'X-Trino-Session': `query_max_execution_time=${duration(run.timeoutMs)}`,
    }
    if (schema !== undefined) headers['X-Trino-Schema'] = headerValue('schema', schema)
    if (run.timezone !== undefined) headers['X-Trino-Time-Zone'] = run.timezone
    let body = run.sql
    if (run.params.length > 0) {
      const values = run.params.map(trinoLiteral).join(', ')
      if (server.executeImmediate) {
        body = `EXECUTE IMMEDIATE ${stringLiteral(run.sql)} USING ${values}`
      } else {
        headers['X-Trino-Prepared-Statement'] = `${PREPARED_NAME}=${encodeURIComponent(run.sql)}`
        body = `EXECUTE ${PREPARED_NAME} USING ${values}`
      }
    }
    const controller = new AbortController()
    const cancelHeaders = { ...this.#authHeaders(), 'X-Trino-User': headers['X-Trino-User'] as string }
    let nextUri: string | undefined
    let cancelled: Promise<void> | undefined
    const cancel = () => {
      controller.abort()
      if (nextUri !== undefined)
        cancelled ??= cancelQuery(nextUri, cancelHeaders, this.#options.connectTimeoutMs, this.#dispatcher)
    }
    return guarded(
      {
        timeoutMs: run.timeoutMs,
        signal: run.signal,
        cancelGraceMs: CANCEL_GRACE_MS,
        errors: TRINO_ERRORS,
        secrets: [c.password],
        cancel,
      },
      async (statement) => {
        try {
          return await this.#page(run, body, headers, cancelHeaders, controller.signal, statement, (uri) => {
            nextUri = uri
          })
        } finally {
          // the API answers once the server was told to stop (DELETE, bounded by the connect timeout)
          await cancelled
        }
      },
    )
  }

  /** Submits, then follows nextUri until the end or maxRows + 1 rows (then DELETE). */
  async #page(
    run: Run,
    body: string,
    headers: Record<string, string>,
    cancelHeaders: Record<string, string>,
    signal: AbortSignal,
    statement: { readonly timedOut: boolean; readonly aborted: boolean },
    track: (nextUri: string | undefined) => void,
  ): Promise<QueryResult> {
    let nextUri: string | undefined
    let page = await this.#submit(body, headers, signal, statement)
    const columns: { name: string; type: string }[] = []
    const rows: Record<string, unknown>[] = []
    let truncated = false
    for (;;) {
      if (page.error) throw new TrinoQueryError(page.error)
      if (columns.length === 0 && page.columns) columns.push(...page.columns)
      for (const values of page.data ?? []) {
        if (rows.length === run.maxRows) {
          truncated = true
          break
        }
        const row: Record<string, unknown> = {}
        columns.forEach((col, i) => {
          row[col.name] = convertValue(values[i], col.type)
        })
        rows.push(row)
      }
      nextUri = page.nextUri
      if (nextUri !== undefined && !sameOrigin(this.#base, nextUri)) {
        // never send the credentials elsewhere: Trino builds nextUri from the address we called
        throw connectionError('the server sent a nextUri for another address')
      }
      track(nextUri)
      if (nextUri === undefined) break
      if (truncated) {
        // maxRows + 1 rows seen: stop paging and cancel the rest on the server
        await cancelQuery(nextUri, cancelHeaders, this.#options.connectTimeoutMs, this.#dispatcher)
        track(undefined)
        break
      }
      page = (await call(
        nextUri,
        { method: 'GET', headers: cancelHeaders, dispatcher: this.#dispatcher },
        signal,
      )) as QueryResults
    }
    return { columns: columns.map((col) => ({ name: col.name, dataType: dataTypeOf(col.type) })), rows, truncated }
  }

  /** The POST: answered within the connect timeout, else the server is unreachable. */
  async #submit(
    body: string,
    headers: Record<string, string>,
    signal: AbortSignal,
    statement: { readonly timedOut: boolean; readonly aborted: boolean },
  ): Promise<QueryResults> {
    const connect = AbortSignal.timeout(this.#options.connectTimeoutMs)
    try {
      return (await call(
        `${this.#base}/v1/statement`,
        { method: 'POST', headers, body, dispatcher: this.#dispatcher },
        AbortSignal.any([signal, connect]),
      )) as QueryResults
    } catch (err) {
      if (statement.aborted || statement.timedOut) throw err
      if (connect.aborted) throw connectionError(`no answer within ${this.#options.connectTimeoutMs} ms`, err)
      if (err instanceof TrinoQueryError) throw err
      throw connectionError(
        TRINO_ERRORS.connectionReason?.(err, TRINO_ERRORS.message?.(err) ?? String(err), true) ?? String(err),
        err,
      )
    }
  }
}
