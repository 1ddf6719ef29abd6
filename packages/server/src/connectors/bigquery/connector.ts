/**
 * bigquery through the official SDK (@google-cloud/bigquery 8.3, REST API v2). One client per
 * datasource (HTTP: nothing pooled to close); each statement is a query job:
 *
 * - jobs.insert with the SQL, named parameters `@p0…` typed (params.ts), `jobTimeoutMs` (the
 *   server's own limit), the default dataset (the configured `dataset_id`, or the tenant's under
 *   DATABASE tenancy, unit: dataset) and the session zone as the `time_zone` connection property
 *   (https://cloud.google.com/bigquery/docs/reference/rest/v2/ConnectionProperty);
 * - jobs.getQueryResults, raw rows, `maxResults` = what is still missing of maxRows + 1, pages
 *   followed by `pageToken` until that many rows or the end: `truncated` if there were more;
 * - our deadline (timeoutMs + CANCEL_GRACE_MS) or the caller's signal: jobs.cancel, and the call
 *   rejects at once (QUERY_TIMEOUT / QUERY_ERROR).
 * Datasets: `databases()` lists them (datasets.list), a tenant dataset is checked once (datasets.get)
 * and unknown ones are DATASOURCE_CONNECTION_ERROR; `introspect` reads tables.list + tables.get.
 */
import type { BigQuery, Job } from '@google-cloud/bigquery'
import { LRUCache } from 'lru-cache'
import { connectionError } from '../errors.js'
import {
  CANCEL_GRACE_MS,
  checkMaxRows,
  guarded,
  METADATA_TIMEOUT_MS,
  type Statement,
  throwIfAborted,
} from '../shared/execution.js'
import { checkTimeZone } from '../shared/values.js'
import type {
  BigqueryCredentials,
  ColumnInfo,
  Connector,
  ConnectorOptions,
  ExecuteOptions,
  QueryResult,
  TableInfo,
} from '../types.js'
import { createClient, parseKey, type ServiceAccountKey } from './client.js'
import { BIGQUERY_ERRORS, reasonOf } from './errors.js'
import { bindParams } from './params.js'
import { convertRow, dataTypeOf, type Field } from './type-mapping.js'

/** Tables whose schemas are read at once while introspecting. */
const INTROSPECT_CONCURRENCY = 8

interface Settings {
  readonly timeoutMs: number
  readonly signal?: AbortSignal | undefined
  readonly connecting?: boolean
}

interface ResultPage {
  readonly jobComplete?: boolean
  readonly schema?: { readonly fields?: readonly Field[] }
  readonly pageToken?: string
}

/** Our own cancel: the statement stops waiting for the service (the job is cancelled too). */
class Cancelled extends Error {}

export class BigqueryConnector implements Connector {
  readonly dialect = 'bigquery' as const
  readonly #credentials: BigqueryCredentials
  readonly #options: ConnectorOptions
  #client: { key: ServiceAccountKey; bigquery: BigQuery } | undefined
  /** Tenant datasets seen to exist (datasets.get), so each is checked once in a while. */
  readonly #datasets = new LRUCache<string, true>({ max: 1000, ttl: 5 * 60_000 })
  #closed = false

  constructor(credentials: BigqueryCredentials, options: ConnectorOptions) {
    this.#credentials = credentials
    this.#options = options
  }

  get #bigquery(): BigQuery {
    if (this.#closed) throw connectionError('the connector is closed')
    if (this.#client === undefined) {
      const key = parseKey(this.#credentials.credentials_json)
      this.#client = { key, bigquery: createClient(this.#credentials, key) }
    }
    return this.#client.bigquery
  }

  async test(): Promise<void> {
    const bigquery = this.#bigquery
    const dataset = this.#credentials.dataset_id
    // Authenticates (token), reaches the API and proves the project (or the dataset) readable.
    await this.#guarded({ timeoutMs: this.#options.connectTimeoutMs, connecting: true }, async () => {
      if (dataset) await bigquery.dataset(dataset).get()
      else await bigquery.getDatasets({ maxResults: 1, autoPaginate: false })
    })
  }

  async databases(): Promise<string[]> {
    const bigquery = this.#bigquery
    const [datasets] = await this.#guarded({ timeoutMs: METADATA_TIMEOUT_MS }, () =>
      bigquery.getDatasets({ autoPaginate: true }),
    )
    return datasets
      .map((d) => d.id ?? '')
      .filter((id) => id !== '')
      .sort()
  }

  async introspect(database?: string): Promise<TableInfo[]> {
    const bigquery = this.#bigquery
    const only = database ?? this.#credentials.dataset_id
    if (database !== undefined) await this.#checkDataset(database)
    const ids = only !== undefined ? [only] : await this.databases()
    const tables = await this.#guarded({ timeoutMs: METADATA_TIMEOUT_MS }, async () => {
      const out: TableInfo[] = []
      for (const id of ids) {
        const [list] = await bigquery.dataset(id).getTables({ autoPaginate: true })
        for (let i = 0; i < list.length; i += INTROSPECT_CONCURRENCY) {
          const batch = await Promise.all(
            list.slice(i, i + INTROSPECT_CONCURRENCY).map(async (table) => {
              const [metadata] = (await table.getMetadata()) as unknown as [{ schema?: { fields?: Field[] } }]
              return { schema: id, name: table.id ?? '', columns: columns(metadata.schema?.fields ?? []) }
            }),
          )
          out.push(...batch)
        }
      }
      return out
    })
    return tables.sort((a, b) =>
      a.schema + a.name < b.schema + b.name ? -1 : a.schema + a.name > b.schema + b.name ? 1 : 0,
    )
  }

  async execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    const maxRows = checkMaxRows(options.maxRows)
    if (options.timezone !== undefined) checkTimeZone(options.timezone)
    throwIfAborted(options.signal)
    const bigquery = this.#bigquery
    if (options.database !== undefined) await this.#checkDataset(options.database)
    const dataset = options.database ?? this.#credentials.dataset_id
    const { params, types } = bindParams(options.params)
    const zone = options.timezone ?? 'UTC'
    let job: Job | undefined
    return this.#guarded(
      { timeoutMs: options.timeoutMs, signal: options.signal },
      async (statement) => {
        ;[job] = await bigquery.createQueryJob({
          query: sql,
          useLegacySql: false,
          location: this.#credentials.dataset_location,
          jobTimeoutMs: Math.max(1, Math.ceil(options.timeoutMs)),
          ...(options.params.length > 0 ? { params, types: types as Record<string, string | string[]> } : {}),
          ...(dataset ? { defaultDataset: { projectId: this.#credentials.project_id, datasetId: dataset } } : {}),
          ...(options.timezone !== undefined
            ? { connectionProperties: [{ key: 'time_zone', value: options.timezone }] }
            : {}),
          labels: { application: 'strata' },
        })
        // cancelled while the job was being created: it must not run on without a reader
        if (statement.timedOut || statement.aborted) cancelJob(job)
        return this.#read(job, maxRows, zone, statement)
      },
      () => cancelJob(job),
    )
  }

  async close(): Promise<void> {
    this.#closed = true
    this.#datasets.clear()
  }

  /** Reads pages until maxRows + 1 rows or the end; waits (long-polls) while the job runs. */
  async #read(job: Job, maxRows: number, zone: string, statement: Statement): Promise<QueryResult> {
    const raw: { f: { v: unknown }[] }[] = []
    let fields: readonly Field[] = []
    let pageToken: string | undefined
    for (;;) {
      if (statement.timedOut || statement.aborted) throw new Cancelled('cancelled')
      const [rows, , page] = (await job.getQueryResults({
        maxResults: maxRows + 1 - raw.length,
        autoPaginate: false,
        skipParsing: true,
        ...(pageToken ? { pageToken } : {}),
      })) as unknown as [{ f: { v: unknown }[] }[] | undefined, unknown, ResultPage]
      if (page.jobComplete === false) continue // the server waited its own poll interval
      fields = page.schema?.fields ?? fields
      raw.push(...(rows ?? []))
      if (raw.length > maxRows || !page.pageToken) break
      pageToken = page.pageToken
    }
    const truncated = raw.length > maxRows
    return {
      columns: fields.map((f) => ({ name: f.name, dataType: dataTypeOf(f.type, f.mode) })),
      rows: raw.slice(0, maxRows).map((row) => convertRow(row, fields, zone)),
      truncated,
    }
  }

  /** A tenant dataset must exist: an unknown one is a connection error naming it. */
  async #checkDataset(id: string): Promise<void> {
    if (this.#datasets.has(id)) return
    const bigquery = this.#bigquery
    try {
      await this.#guarded({ timeoutMs: METADATA_TIMEOUT_MS }, () => bigquery.dataset(id).get())
    } catch (err) {
      const cause = (err as { cause?: unknown }).cause
      if ((cause as { code?: unknown } | undefined)?.code === 404 || reasonOf(cause) === 'notFound') {
        throw connectionError(`dataset "${id.slice(0, 128)}" not found in project ${this.#credentials.project_id}`, err)
      }
      throw err
    }
    this.#datasets.set(id, true)
  }

  /**
   * Runs one API call (or a whole query) through the execution core. The SDK's promise cannot be
   * aborted, so a cancel (our deadline, the caller's signal, the connect timeout) rejects at once,
   * after `onCancel` asked the service to stop the job.
   */
  async #guarded<T>(settings: Settings, work: (statement: Statement) => Promise<T>, onCancel?: () => void): Promise<T> {
    let stop: ((reason: Cancelled) => void) | undefined
    const stopped = new Promise<never>((_, reject) => {
      stop = reject
    })
    stopped.catch(() => undefined)
    const connecting = settings.connecting === true
    return guarded(
      {
        timeoutMs: settings.timeoutMs,
        signal: settings.signal,
        // BigQuery enforces jobTimeoutMs itself; metadata calls and connecting have only ours
        cancelGraceMs: connecting || onCancel === undefined ? 0 : CANCEL_GRACE_MS,
        connecting,
        errors: BIGQUERY_ERRORS,
        secrets: [this.#client?.key.private_key],
        cancel: () => {
          onCancel?.()
          stop?.(new Cancelled('cancelled'))
        },
      },
      (statement) => Promise.race([work(statement), stopped]),
    )
  }
}

function cancelJob(job: Job | undefined): void {
  job?.cancel().then(
    () => undefined,
    () => undefined,
  )
}

/** Top-level fields as columns (a STRUCT or REPEATED field is one json column). */
function columns(fields: readonly Field[]): ColumnInfo[] {
  return fields.map((f) => ({
    name: f.name,
    nativeType: f.mode === 'REPEATED' ? `ARRAY<${f.type}>` : f.type,
    dataType: dataTypeOf(f.type, f.mode),
    nullable: f.mode !== 'REQUIRED',
  }))
}
