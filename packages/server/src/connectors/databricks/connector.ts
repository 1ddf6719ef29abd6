/**
 * databricks over the SQL Statement Execution API (api.ts; README.md says why this and not the
 * Thrift driver). Every statement is submitted with `wait_timeout: 0s`, so the service answers
 * at once with the statement ID, and is then polled: the ID is known before a deadline or an
 * abort may need it, and both cancel the statement on the warehouse (`POST …/cancel`).
 * Values travel only as typed named parameters (params.ts); the row cap is the API's
 * `row_limit` (maxRows + 1) and chunks are read only while rows are still wanted.
 * The DATABASE-tenancy unit is a schema of the warehouse's default catalog, sent as the
 * request's `schema` field (like USE SCHEMA), never as SQL text; each is checked to exist once.
 * The API keeps no session, so there is no session time zone (capabilities say so).
 */
import { LRUCache } from 'lru-cache'
import { connectionError } from '../errors.js'
import { checkMaxRows, guarded, METADATA_TIMEOUT_MS, throwIfAborted } from '../shared/execution.js'
import { columnsListing, tablesOfListing } from '../shared/introspection.js'
import { tenantPoolLimit } from '../shared/pool-cache.js'
import { checkTimeZone } from '../shared/values.js'
import type {
  Connector,
  ConnectorOptions,
  DatabricksCredentials,
  ExecuteOptions,
  QueryResult,
  TableInfo,
} from '../types.js'
import { type ExecuteStatementRequest, nextChunk, type ResultData, StatementClient, statementError } from './api.js'
import { type EndpointResult, parseEndpoint } from './endpoint.js'
import { DATABRICKS_ERRORS } from './errors.js'
import { statementParameters } from './params.js'
import { convertValue, dataTypeOf } from './type-mapping.js'

/** The first status poll comes this soon; the interval then doubles up to POLL_MAX_MS. */
export const POLL_FIRST_MS = 20
export const POLL_MAX_MS = 1000
/** A cancel request is fire and forget, bounded by this. */
const CANCEL_REQUEST_MS = 5000

interface RunSettings {
  readonly params?: readonly unknown[]
  readonly timeoutMs: number
  readonly maxRows: number
  readonly schema?: string | undefined
  readonly signal?: AbortSignal | undefined
  /** test(): every failure is a connection failure. */
  readonly connecting?: boolean
  /** test(): a statement still PENDING (the warehouse is starting) this long after submit is accepted and cancelled. */
  readonly acceptPendingAfterMs?: number
}

interface Column {
  readonly name: string
  readonly nativeType: string
}

interface Fetched {
  readonly columns: readonly Column[]
  readonly rows: Record<string, unknown>[]
  readonly truncated: boolean
}

export class DatabricksConnector implements Connector {
  readonly dialect = 'databricks' as const
  readonly #credentials: DatabricksCredentials
  readonly #options: ConnectorOptions
  readonly #endpoint: EndpointResult
  readonly #client: StatementClient | undefined
  /** Tenant schemas known to exist (the check's promise, dropped again when it failed). */
  readonly #units: LRUCache<string, Promise<void>>
  #closed = false

  constructor(credentials: DatabricksCredentials, options: ConnectorOptions) {
    this.#credentials = credentials
    this.#options = options
    this.#endpoint = parseEndpoint(credentials.serverHostname, credentials.httpPath)
    this.#client =
      'endpoint' in this.#endpoint ? new StatementClient(this.#endpoint.endpoint.baseUrl, credentials.token) : undefined
    this.#units = new LRUCache<string, Promise<void>>({ max: tenantPoolLimit(options) })
  }

  async test(): Promise<void> {
    await this.#run('SELECT 1 AS one', {
      timeoutMs: this.#options.connectTimeoutMs,
      maxRows: 1,
      connecting: true,
      acceptPendingAfterMs: this.#options.connectTimeoutMs / 2,
    })
  }

  async databases(): Promise<string[]> {
    const { rows } = await this.#run(
      `SELECT schema_name FROM information_schema.schemata
        WHERE catalog_name = current_catalog() AND schema_name <> 'information_schema' ORDER BY schema_name`,
      { timeoutMs: METADATA_TIMEOUT_MS, maxRows: 1_000_000 },
    )
    return rows.map((r) => String(r.schema_name))
  }

  async introspect(database?: string): Promise<TableInfo[]> {
    const schema = await this.#unit(database)
    // The schema is the request's default schema (a connection parameter): current_schema() names it.
    const listing = columnsListing({
      placeholder: (i) => `:p${i}`,
      quote: (alias) => `\`${alias}\``,
      catalog: { current: 'CURRENT_CATALOG()' },
      schema: { current: 'CURRENT_SCHEMA()' },
    })
    const { rows } = await this.#run(listing.sql, { timeoutMs: METADATA_TIMEOUT_MS, maxRows: 1_000_000, schema })
    return tablesOfListing(rows, { dataType: (nativeType) => dataTypeOf(nativeType) })
  }

  async execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    const maxRows = checkMaxRows(options.maxRows)
    // The API has no session time zone: a zone is checked, accepted and not applied.
    if (options.timezone !== undefined) checkTimeZone(options.timezone)
    throwIfAborted(options.signal)
    const schema = await this.#unit(options.database)
    const { columns, rows, truncated } = await this.#run(sql, {
      params: options.params,
      timeoutMs: options.timeoutMs,
      maxRows,
      schema,
      signal: options.signal,
    })
    return { columns: columns.map((c) => ({ name: c.name, dataType: dataTypeOf(c.nativeType) })), rows, truncated }
  }

  async close(): Promise<void> {
    this.#closed = true
    this.#units.clear()
  }

  /** A tenant schema, checked once to exist (an unknown one is a connection error, as elsewhere). */
  async #unit(database: string | undefined): Promise<string | undefined> {
    if (database === undefined) return undefined
    let check = this.#units.get(database)
    if (check === undefined) {
      const started = this.#checkSchema(database)
      check = started
      this.#units.set(database, started)
      started.catch(() => {
        if (this.#units.get(database) === started) this.#units.delete(database)
      })
    }
    await check
    return database
  }

  async #checkSchema(schema: string): Promise<void> {
    const { rows } = await this.#run(
      `SELECT schema_name FROM information_schema.schemata
        WHERE catalog_name = current_catalog() AND lower(schema_name) = lower(:p0)`,
      { params: [schema], timeoutMs: METADATA_TIMEOUT_MS, maxRows: 1 },
    )
    if (rows.length === 0) throw connectionError(`no schema "${schema}" in the warehouse's default catalog`)
  }

  #live(): StatementClient {
    if (this.#closed) throw connectionError('the connector is closed')
    if ('problem' in this.#endpoint) throw connectionError(this.#endpoint.problem)
    return this.#client as StatementClient
  }

  /**
   * Submits one statement and reads its result, under the execution core. Our deadline (no
   * server-side limit of ours exists: the grace is 0) and the caller's signal stop the polling
   * and cancel the statement on the warehouse; the submit itself is answered at once, so it is
   * left to finish (its statement ID is needed for the cancel) and only dropped when it hangs.
   * While connecting, the deadline aborts everything at once.
   */
  #run(sql: string, settings: RunSettings): Promise<Fetched> {
    const client = this.#live()
    const warehouseId = 'endpoint' in this.#endpoint ? this.#endpoint.endpoint.warehouseId : ''
    const connecting = settings.connecting === true
    const submitControl = new AbortController()
    const pollControl = new AbortController()
    let statementId: string | undefined
    let cancelled = false
    const cancelOnWarehouse = (id: string) => {
      client.cancel(id, AbortSignal.timeout(CANCEL_REQUEST_MS)).catch(() => undefined)
    }
    const params = settings.params ?? []
    const body: ExecuteStatementRequest = {
      statement: sql,
      warehouse_id: warehouseId,
      ...(settings.schema === undefined ? {} : { schema: settings.schema }),
      ...(params.length > 0 ? { parameters: statementParameters(params) } : {}),
      row_limit: settings.maxRows + 1,
      format: 'JSON_ARRAY',
      disposition: 'EXTERNAL_LINKS', // INLINE fails any result over 25 MiB (api.ts)
      wait_timeout: '0s',
      on_wait_timeout: 'CONTINUE',
    }
    return guarded(
      {
        timeoutMs: settings.timeoutMs,
        signal: settings.signal,
        cancelGraceMs: 0,
        connecting,
        errors: DATABRICKS_ERRORS,
        secrets: [this.#credentials.token],
        cancel: () => {
          cancelled = true
          pollControl.abort()
          if (connecting) submitControl.abort()
          if (statementId !== undefined) cancelOnWarehouse(statementId)
        },
        drop: () => submitControl.abort(),
      },
      async () => {
        const submittedAt = Date.now()
        let response = await client.submit(body, submitControl.signal)
        const id = response.statement_id
        statementId = id
        if (cancelled) {
          cancelOnWarehouse(id) // the deadline or the abort came while the submit was answered
          throw new Error('the statement was cancelled')
        }
        let delay = POLL_FIRST_MS
        while (response.status.state === 'PENDING' || response.status.state === 'RUNNING') {
          const accept = settings.acceptPendingAfterMs
          if (response.status.state === 'PENDING' && accept !== undefined && Date.now() - submittedAt >= accept) {
            // test(): the host, the token and the warehouse answered; the warehouse is starting.
            cancelOnWarehouse(id)
            return { columns: [], rows: [], truncated: false }
          }
          await sleep(delay, pollControl.signal)
          delay = Math.min(delay * 2, POLL_MAX_MS)
          response = await client.status(id, pollControl.signal)
        }
        if (response.status.state !== 'SUCCEEDED') throw statementError(response)
        const columns: Column[] = (response.manifest?.schema?.columns ?? []).map((c) => ({
          name: c.name,
          nativeType: c.type_text ?? c.type_name ?? 'STRING',
        }))
        const values: (string | null)[][] = []
        let chunk: ResultData | undefined = response.result
        while (chunk !== undefined) {
          // streamed: once maxRows + 1 rows are in (enough to know the result is truncated),
          // the download in progress is cancelled and no further link or chunk is fetched
          for await (const row of client.rows(chunk, pollControl.signal)) {
            values.push(row)
            if (values.length > settings.maxRows) break
          }
          const next = nextChunk(chunk)
          if (values.length > settings.maxRows || next === undefined) break
          chunk = await client.chunk(id, next, pollControl.signal)
        }
        const truncated = values.length > settings.maxRows || response.manifest?.truncated === true
        const rows = values.slice(0, settings.maxRows).map((row) => {
          const out: Record<string, unknown> = {}
          columns.forEach((c, i) => {
            out[c.name] = convertValue(row[i], c.nativeType)
          })
          return out
        })
        return { columns, rows, truncated }
      },
    )
  }
}

/** Waits, or rejects as soon as the signal fires. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason)
      return
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
