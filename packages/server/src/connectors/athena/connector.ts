/**
 * athena through the official AWS SDK (@aws-sdk/client-athena): StartQueryExecution (catalog,
 * database, workgroup, output location, ExecutionParameters), GetQueryExecution polled until the
 * query settles, GetQueryResults paged (the first row of the first page is the header) and
 * StopQueryExecution on our deadline or the caller's abort. Athena cannot bind: its execution
 * parameters are substituted as literal text, so each value is rendered as a typed Trino
 * literal (../trino/literals.ts, proven there). The DATABASE-tenancy unit is a database of the
 * catalog (ListDatabases); introspection is ListTableMetadata. Athena has no session time zone.
 */
import { randomUUID } from 'node:crypto'
import {
  AthenaClient,
  GetDatabaseCommand,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  type GetQueryResultsCommandOutput,
  GetWorkGroupCommand,
  ListDatabasesCommand,
  ListTableMetadataCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena'
import type { CredentialsByType } from '../credentials/schemas.js'
import { connectionError } from '../errors.js'
import { BACKSTOP_TIMEOUT_MS, checkMaxRows, guarded, METADATA_TIMEOUT_MS, throwIfAborted } from '../shared/execution.js'
import { checkTimeZone } from '../shared/values.js'
import { trinoLiteral } from '../trino/literals.js'
import { convertValue, dataTypeOf } from '../trino/type-mapping.js'
import type { ColumnInfo, Connector, ConnectorOptions, ExecuteOptions, QueryResult, TableInfo } from '../types.js'
import { ATHENA_ERRORS, AthenaQueryFailed } from './errors.js'

export type AthenaCredentials = CredentialsByType['athena']

const DEFAULT_CATALOG = 'AwsDataCatalog'
const DEFAULT_WORKGROUP = 'primary'
/** GetQueryResults returns at most 1000 rows a page. */
const MAX_PAGE = 1000
/** Polling GetQueryExecution: from this delay, doubling, up to the next. */
const FIRST_POLL_MS = 50
const MAX_POLL_MS = 1000
const MAX_KNOWN_DATABASES = 1000

interface Step {
  readonly timeoutMs: number
  readonly signal?: AbortSignal | undefined
  readonly connecting?: boolean
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const timer = setTimeout(resolve, ms)
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(signal.reason)
      },
      { once: true },
    )
  })

export class AthenaConnector implements Connector {
  readonly dialect = 'trino' as const
  readonly #credentials: AthenaCredentials
  readonly #options: ConnectorOptions
  readonly #client: AthenaClient
  readonly #knownDatabases = new Set<string>()
  #closed = false

  constructor(credentials: AthenaCredentials, options: ConnectorOptions) {
    this.#credentials = credentials
    this.#options = options
    // Everything explicit: connectors never read the environment (keys, region, endpoint, retries).
    this.#client = new AthenaClient({
      region: credentials.region,
      credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
      ...(credentials.endpoint !== undefined ? { endpoint: credentials.endpoint } : {}),
      maxAttempts: 2,
      retryMode: 'standard',
      useFipsEndpoint: false,
      useDualstackEndpoint: false,
      requestHandler: { connectionTimeout: options.connectTimeoutMs, requestTimeout: BACKSTOP_TIMEOUT_MS },
    })
  }

  get #catalog(): string {
    return this.#credentials.catalog ?? DEFAULT_CATALOG
  }

  get #workGroup(): string {
    return this.#credentials.workgroup ?? DEFAULT_WORKGROUP
  }

  /** The keys, the endpoint and the workgroup (and the database, when one is configured). */
  async test(): Promise<void> {
    const step = { timeoutMs: this.#options.connectTimeoutMs, connecting: true }
    await this.#step(step, (abortSignal) =>
      this.#client.send(new GetWorkGroupCommand({ WorkGroup: this.#workGroup }), { abortSignal }),
    )
    const database = this.#credentials.database
    if (database !== undefined) {
      await this.#step(step, (abortSignal) =>
        this.#client.send(new GetDatabaseCommand({ CatalogName: this.#catalog, DatabaseName: database }), {
          abortSignal,
        }),
      )
    }
  }

  async databases(): Promise<string[]> {
    const names: string[] = []
    let token: string | undefined
    do {
      const out = await this.#step({ timeoutMs: METADATA_TIMEOUT_MS }, (abortSignal) =>
        this.#client.send(new ListDatabasesCommand({ CatalogName: this.#catalog, NextToken: token }), { abortSignal }),
      )
      for (const db of out.DatabaseList ?? []) if (db.Name) names.push(db.Name)
      token = out.NextToken
    } while (token)
    return names
  }

  async introspect(database?: string): Promise<TableInfo[]> {
    const name = database ?? this.#credentials.database
    if (name === undefined) throw connectionError('introspection needs a database: set `database`')
    const tables: TableInfo[] = []
    let token: string | undefined
    do {
      const out = await this.#step({ timeoutMs: METADATA_TIMEOUT_MS }, (abortSignal) =>
        this.#client.send(
          new ListTableMetadataCommand({ CatalogName: this.#catalog, DatabaseName: name, NextToken: token }),
          { abortSignal },
        ),
      )
      for (const t of out.TableMetadataList ?? []) {
        if (!t.Name) continue
        const columns: ColumnInfo[] = [...(t.Columns ?? []), ...(t.PartitionKeys ?? [])].flatMap((c) =>
          c.Name
            ? [{ name: c.Name, nativeType: c.Type ?? '', dataType: dataTypeOf(c.Type ?? ''), nullable: true }]
            : [],
        )
        tables.push({ schema: name, name: t.Name, columns })
      }
      token = out.NextToken
    } while (token)
    return tables
  }

  async execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    const maxRows = checkMaxRows(options.maxRows)
    // Athena has no session time zone (capabilities say so): a valid zone is accepted, not applied.
    if (options.timezone !== undefined) checkTimeZone(options.timezone)
    throwIfAborted(options.signal)
    const parameters = options.params.map(trinoLiteral)
    const database = options.database ?? this.#credentials.database
    if (options.database !== undefined) await this.#checkDatabase(options.database, options.signal)
    let queryId: string | undefined
    let stopped: Promise<void> | undefined
    const controller = new AbortController()
    return guarded(
      {
        timeoutMs: options.timeoutMs,
        signal: options.signal,
        cancelGraceMs: 0, // no per-query limit on Athena's side: our deadline stops it
        errors: ATHENA_ERRORS,
        secrets: [this.#credentials.secretAccessKey],
        cancel: () => {
          controller.abort()
          if (queryId !== undefined) stopped ??= this.#stop(queryId)
        },
      },
      async () => {
        this.#checkOpen()
        const signal = controller.signal
        try {
          const started = await this.#startQuery(sql, parameters, database, signal)
          queryId = started
          await this.#settle(started, signal)
          return await this.#results(started, maxRows, signal)
        } finally {
          // the API answers once the service was told to stop (bounded by the connect timeout)
          await stopped
        }
      },
    )
  }

  async close(): Promise<void> {
    this.#closed = true
    this.#client.destroy()
  }

  #checkOpen(): void {
    if (this.#closed) throw connectionError('the connector is closed')
  }

  /** StartQueryExecution, answered within the connect timeout (else the endpoint is unreachable). */
  async #startQuery(
    sql: string,
    parameters: readonly string[],
    database: string | undefined,
    signal: AbortSignal,
  ): Promise<string> {
    const c = this.#credentials
    const connect = AbortSignal.timeout(this.#options.connectTimeoutMs)
    let out: { QueryExecutionId?: string | undefined }
    try {
      out = await this.#client.send(
        new StartQueryExecutionCommand({
          QueryString: sql,
          ClientRequestToken: randomUUID(),
          QueryExecutionContext: { Catalog: this.#catalog, ...(database !== undefined ? { Database: database } : {}) },
          WorkGroup: this.#workGroup,
          ResultConfiguration: { OutputLocation: c.s3OutputLocation },
          ...(parameters.length > 0 ? { ExecutionParameters: [...parameters] } : {}),
        }),
        { abortSignal: AbortSignal.any([signal, connect]) },
      )
    } catch (err) {
      if (connect.aborted && !signal.aborted) {
        throw connectionError(`no answer within ${this.#options.connectTimeoutMs} ms`, err)
      }
      throw err
    }
    if (!out.QueryExecutionId) throw connectionError('the endpoint did not answer as Athena')
    return out.QueryExecutionId
  }

  /** Polls GetQueryExecution until the query settles; FAILED is a QUERY_ERROR with Athena's reason. */
  async #settle(queryId: string, signal: AbortSignal): Promise<void> {
    let delay = FIRST_POLL_MS
    for (;;) {
      const out = await this.#client.send(new GetQueryExecutionCommand({ QueryExecutionId: queryId }), {
        abortSignal: signal,
      })
      const status = out.QueryExecution?.Status
      switch (status?.State) {
        case 'SUCCEEDED':
          return
        case 'FAILED':
          throw new AthenaQueryFailed(
            status.AthenaError?.ErrorMessage ?? status.StateChangeReason ?? 'the query failed',
          )
        case 'CANCELLED':
          throw new AthenaQueryFailed(status.StateChangeReason ?? 'the query was cancelled')
      }
      await sleep(delay, signal)
      delay = Math.min(delay * 2, MAX_POLL_MS)
    }
  }

  /** Pages GetQueryResults up to maxRows + 1 rows: the header row first, then the values. */
  async #results(queryId: string, maxRows: number, signal: AbortSignal): Promise<QueryResult> {
    const rows: Record<string, unknown>[] = []
    let columns: { name: string; type: string }[] | undefined
    let token: string | undefined
    let header = true
    let truncated = false
    do {
      const out: GetQueryResultsCommandOutput = await this.#client.send(
        new GetQueryResultsCommand({ QueryExecutionId: queryId, NextToken: token, MaxResults: MAX_PAGE }),
        { abortSignal: signal },
      )
      columns ??= (out.ResultSet?.ResultSetMetadata?.ColumnInfo ?? []).map((c) => ({
        name: c.Name ?? '',
        type: c.Type ?? 'varchar',
      }))
      for (const row of out.ResultSet?.Rows ?? []) {
        if (header) {
          header = false // the column names, which ColumnInfo also gives
          continue
        }
        if (rows.length === maxRows) {
          truncated = true
          break
        }
        const data = row.Data ?? []
        const record: Record<string, unknown> = {}
        columns.forEach((col, i) => {
          record[col.name] = convertValue(data[i]?.VarCharValue ?? null, col.type)
        })
        rows.push(record)
      }
      token = truncated ? undefined : out.NextToken
    } while (token)
    return {
      columns: (columns ?? []).map((c) => ({ name: c.name, dataType: dataTypeOf(c.type) })),
      rows,
      truncated,
    }
  }

  /** StopQueryExecution (bounded); never rejects. */
  #stop(queryId: string): Promise<void> {
    return this.#client
      .send(new StopQueryExecutionCommand({ QueryExecutionId: queryId }), {
        abortSignal: AbortSignal.timeout(this.#options.connectTimeoutMs),
      })
      .then(
        () => undefined,
        () => undefined,
      )
  }

  /** A database named by DATABASE tenancy must exist in the catalog: else a connection error. */
  async #checkDatabase(database: string, signal: AbortSignal | undefined): Promise<void> {
    if (database === this.#credentials.database || this.#knownDatabases.has(database)) return
    await this.#step({ timeoutMs: METADATA_TIMEOUT_MS, signal }, (abortSignal) =>
      this.#client.send(new GetDatabaseCommand({ CatalogName: this.#catalog, DatabaseName: database }), {
        abortSignal,
      }),
    )
    if (this.#knownDatabases.size >= MAX_KNOWN_DATABASES) this.#knownDatabases.clear()
    this.#knownDatabases.add(database)
  }

  /** One API call under the execution core (deadline, abort, error translation). */
  #step<T>(step: Step, work: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController()
    return guarded(
      {
        timeoutMs: step.timeoutMs,
        signal: step.signal,
        cancelGraceMs: 0,
        connecting: step.connecting === true,
        errors: ATHENA_ERRORS,
        secrets: [this.#credentials.secretAccessKey],
        cancel: () => controller.abort(),
      },
      async () => {
        this.#checkOpen()
        return work(controller.signal)
      },
    )
  }
}
