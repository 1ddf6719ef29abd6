/**
 * elasticsearch and opensearch: one connector, the product's official client (transport.ts).
 * A statement is the JSON search request of the `elasticsearch` dialect
 * (query/dialects/elasticsearch/statement.ts): its placeholders are replaced by values
 * (placeholders.ts), text fields by their keyword sub-fields (mapping.ts), and its plan turns the
 * answer into rows: a composite aggregation is paged by `after_key`; ORDER BY, OFFSET and LIMIT
 * are applied here to the collected buckets (a search cannot sort buckets by a metric across
 * composite pages); reading stops early when no order is asked, and at GROUP_CAP groups otherwise.
 *
 * Deadlines: every search carries `timeout` (the rest of the statement's time; an answer with
 * `timed_out: true` is QUERY_TIMEOUT, never partial rows), and our deadline a little later aborts
 * the HTTP request. Search requests are cancellable tasks: the cluster cancels one whose HTTP
 * connection closes (Elasticsearch 7.4+, OpenSearch). DATABASE tenancy: the unit is an index
 * (or alias) and replaces the statement's index.
 */

import { ApiError } from '../../errors.js'
import type { Output, Plan, SearchStatement } from '../../query/dialects/elasticsearch/statement.js'
import { parseJsonText } from '../../validation/json-text.js'
import { connectionError, errorMessage, queryError, queryTimeout } from '../errors.js'
import {
  BACKSTOP_TIMEOUT_MS,
  CANCEL_GRACE_MS,
  checkMaxRows,
  guarded,
  METADATA_TIMEOUT_MS,
  throwIfAborted,
} from '../shared/execution.js'
import { checkTimeZone } from '../shared/values.js'
import type { Connector, ConnectorOptions, ExecuteOptions, QueryResult, TableInfo } from '../types.js'
import { SEARCH_ERRORS } from './errors.js'
import { columnsOf, type FieldInfo, fieldsOf, keywordFields, tablesOf } from './mapping.js'
import { substitute } from './placeholders.js'
import { type Flavour, openTransport, type SearchCredentials, type SearchTransport } from './transport.js'
import { dataTypeOf, rowValue, sourceValue } from './values.js'

/** Groups collected at most to sort them by a measure (ORDER BY a measure needs every group). */
export const GROUP_CAP = 100_000
/** The default index.max_result_window: documents are read at most this far. */
const MAX_RESULT_WINDOW = 10_000
/** How long an index's mapping and the list of units are reused. */
const METADATA_TTL_MS = 60_000

type Request = (method: 'GET' | 'POST', path: string, body?: unknown, qs?: Record<string, string>) => Promise<unknown>
type Row = Record<string, unknown>

interface SearchAnswer {
  timed_out?: boolean
  _shards?: { failed?: number; failures?: { reason?: { type?: string; reason?: string } }[] }
  hits?: { total?: { value?: number } | number; hits?: { _source?: Row }[] }
  aggregations?: Record<string, { value?: unknown; buckets?: Bucket[]; after_key?: Row }>
}
interface Bucket {
  key: Row
  doc_count: number
  [agg: string]: unknown
}

const path = (index: string, endpoint: string) => `/${encodeURIComponent(index)}/${endpoint}`

export class SearchConnector implements Connector {
  readonly dialect = 'elasticsearch' as const
  private transport: Promise<SearchTransport> | undefined
  private closed = false
  private readonly mappings = new Map<string, { at: number; fields: Map<string, FieldInfo> }>()
  private units: { at: number; list: string[] } | undefined

  constructor(
    private readonly credentials: SearchCredentials,
    private readonly options: ConnectorOptions,
    private readonly flavour: Flavour,
  ) {}

  private client(): Promise<SearchTransport> {
    if (this.closed) return Promise.reject(connectionError('the connector is closed'))
    this.transport ??= openTransport(this.flavour, this.credentials)
    return this.transport
  }

  /** Runs `work` under the execution core's schedule; its requests share one abort. */
  private async run<T>(
    o: { timeoutMs: number; signal?: AbortSignal | undefined; connecting?: boolean; cancelGraceMs: number },
    work: (request: Request) => Promise<T>,
  ): Promise<T> {
    // the SDK is loaded before the deadline starts: importing a module is not the cluster's answer time
    let client: SearchTransport
    try {
      client = await this.client()
    } catch (err) {
      if (err instanceof ApiError) throw err
      throw connectionError(`the ${this.flavour} client could not be created: ${errorMessage(err)}`, err)
    }
    throwIfAborted(o.signal)
    const controller = new AbortController()
    return guarded(
      {
        timeoutMs: o.timeoutMs,
        signal: o.signal,
        cancelGraceMs: o.cancelGraceMs,
        ...(o.connecting ? { connecting: true } : {}),
        errors: SEARCH_ERRORS,
        secrets: [
          this.credentials.password,
          ...('awsSecretAccessKey' in this.credentials
            ? [this.credentials.awsSecretAccessKey, this.credentials.awsSessionToken]
            : []),
        ],
        cancel: () => controller.abort(),
      },
      async () => {
        const requestTimeout = o.connecting ? o.timeoutMs : BACKSTOP_TIMEOUT_MS
        return work((method, p, body, qs) =>
          client.request(method, p, body, {
            ...(qs ? { querystring: qs } : {}),
            requestTimeout,
            signal: controller.signal,
          }),
        )
      },
    )
  }

  async test(): Promise<void> {
    const info = await this.run(
      { timeoutMs: this.options.connectTimeoutMs, connecting: true, cancelGraceMs: 0 },
      (request) => request('GET', '/'),
    )
    if (typeof (info as { version?: { number?: unknown } } | null)?.version?.number !== 'string') {
      throw connectionError(
        `the server at this address is not ${this.flavour === 'opensearch' ? 'OpenSearch' : 'Elasticsearch'}`,
      )
    }
  }

  async databases(): Promise<string[]> {
    return this.run({ timeoutMs: METADATA_TIMEOUT_MS, cancelGraceMs: 0 }, (request) => this.unitList(request, true))
  }

  /** Indices and aliases, hidden (`.`) ones left out: the units of DATABASE tenancy. */
  private async unitList(request: Request, fresh = false): Promise<string[]> {
    if (!fresh && this.units && Date.now() - this.units.at < METADATA_TTL_MS) return this.units.list
    const indices = (await request('GET', '/_cat/indices', undefined, { format: 'json', h: 'index' })) as {
      index: string
    }[]
    const aliases = (await request('GET', '/_cat/aliases', undefined, { format: 'json', h: 'alias' })) as {
      alias: string
    }[]
    const list = [...new Set([...indices.map((i) => i.index), ...aliases.map((a) => a.alias)])]
      .filter((n) => typeof n === 'string' && !n.startsWith('.'))
      .sort()
    this.units = { at: Date.now(), list }
    return list
  }

  private async checkUnit(request: Request, unit: string): Promise<void> {
    if ((await this.unitList(request)).includes(unit)) return
    if ((await this.unitList(request, true)).includes(unit)) return
    throw connectionError(`no index or alias "${unit.slice(0, 200)}" on the cluster`)
  }

  async introspect(database?: string): Promise<TableInfo[]> {
    return this.run({ timeoutMs: METADATA_TIMEOUT_MS, cancelGraceMs: 0 }, async (request) => {
      if (database === undefined) return tablesOf(await request('GET', '/_mapping'))
      await this.checkUnit(request, database)
      // the unit (an index, or an alias over several) is one table, named as the tenant's unit
      const fields = fieldsOf(await request('GET', path(database, '_mapping')))
      return [{ schema: '', name: database, columns: columnsOf(fields) }]
    })
  }

  private async fields(request: Request, index: string): Promise<Map<string, FieldInfo>> {
    const cached = this.mappings.get(index)
    if (cached && Date.now() - cached.at < METADATA_TTL_MS) return cached.fields
    const fields = fieldsOf(await request('GET', path(index, '_mapping')))
    if (this.mappings.size > 256) this.mappings.clear()
    this.mappings.set(index, { at: Date.now(), fields })
    return fields
  }

  async execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    const maxRows = checkMaxRows(options.maxRows)
    throwIfAborted(options.signal)
    if (this.closed) throw connectionError('the connector is closed')
    if (options.timezone !== undefined) checkTimeZone(options.timezone)
    const zone = options.timezone ?? 'UTC'
    const statement = parseStatement(sql)
    const resolved = substitute(statement, options.params, zone) as SearchStatement
    const started = Date.now()
    return this.run(
      { timeoutMs: options.timeoutMs, signal: options.signal, cancelGraceMs: CANCEL_GRACE_MS },
      async (request) => {
        const index = options.database ?? resolved.index
        if (options.database !== undefined) await this.checkUnit(request, options.database)
        const fields = await this.fields(request, index)
        const body = keywordFields(resolved.body, fields) as Record<string, unknown>
        const search = async (b: unknown): Promise<SearchAnswer> => {
          const left = Math.max(1, options.timeoutMs - (Date.now() - started))
          const answer = (await request('POST', path(index, '_search'), b, { timeout: `${left}ms` })) as SearchAnswer
          if (answer.timed_out === true) throw queryTimeout(options.timeoutMs)
          const failure = answer._shards?.failures?.[0]?.reason
          if ((answer._shards?.failed ?? 0) > 0)
            throw queryError(`${failure?.type ?? 'shard failure'}: ${failure?.reason ?? ''}`)
          return answer
        }
        const plan = resolved.plan
        const run = new PlanRun(plan, fields, zone, maxRows, search)
        return run.result(body)
      },
    )
  }

  async close(): Promise<void> {
    this.closed = true
    // once: the OpenSearch client's close() never returns when called on an emptied pool
    const pending = this.transport
    this.transport = undefined
    const transport = await pending?.catch(() => undefined)
    await transport?.close()
  }
}

/** The JSON text of a statement, checked for its shape (anything else is a QUERY_ERROR). */
function parseStatement(sql: string): SearchStatement {
  // the one parser of outside JSON: a statement nested deeper than any request is refused
  const parsed = parseJsonText(sql)
  if ('fault' in parsed)
    throw queryError(`the statement is not a search request (JSON expected): it ${parsed.fault.problem}`)
  const s = parsed.value as Partial<SearchStatement> | null
  if (
    s === null ||
    typeof s !== 'object' ||
    typeof s.index !== 'string' ||
    s.index === '' ||
    typeof s.body !== 'object' ||
    s.body === null ||
    typeof s.plan?.shape !== 'string'
  ) {
    throw queryError('the statement is not a search request ({ index, body, plan } expected)')
  }
  return s as SearchStatement
}

/** One plan over its search answers. */
class PlanRun {
  constructor(
    private readonly plan: Plan,
    private readonly fields: ReadonlyMap<string, FieldInfo>,
    private readonly zone: string,
    private readonly maxRows: number,
    private readonly search: (body: unknown) => Promise<SearchAnswer>,
  ) {}

  private columns(outputs: readonly Output[]): QueryResult['columns'] {
    return outputs.map((o) => ({ name: o.name, dataType: dataTypeOf(o, this.field(o)) }))
  }

  private field(o: Output): FieldInfo | undefined {
    return o.field === undefined ? undefined : this.fields.get(o.field)
  }

  private value(v: unknown, o: Output): unknown {
    return rowValue(v, o, this.field(o), { session: this.zone })
  }

  async result(body: Record<string, unknown>): Promise<QueryResult> {
    const plan = this.plan
    switch (plan.shape) {
      case 'metrics': {
        const answer = await this.search(body)
        const total = totalOf(answer)
        const row: Row = {}
        for (const o of plan.columns) {
          const raw = o.from === 'total' ? total : answer.aggregations?.[o.agg ?? '']?.value
          row[o.name] = o.fn === 'sum' && total === 0 ? null : this.value(raw, o)
        }
        return { columns: this.columns(plan.columns), rows: [row], truncated: false }
      }
      case 'groups': {
        const offset = plan.offset ?? 0
        const window = Math.min(plan.limit ?? Number.POSITIVE_INFINITY, this.maxRows + 1)
        const want = plan.order.length === 0 ? offset + window : GROUP_CAP + 1
        const buckets = await this.buckets(body, want)
        if (plan.order.length > 0 && buckets.length > GROUP_CAP) {
          throw queryError(`more than ${GROUP_CAP} groups to order: add a filter or fewer dimensions`)
        }
        let rows = buckets.map((b) => this.bucketRow(b, plan.columns))
        if (plan.order.length > 0) rows.sort(comparator(plan.order))
        rows = rows.slice(offset, offset + window)
        const truncated = rows.length > this.maxRows
        return { columns: this.columns(plan.columns), rows: rows.slice(0, this.maxRows), truncated }
      }
      case 'hits': {
        const from = plan.offset ?? 0
        // from + size may not pass the index's max_result_window (10 000 by default)
        const window = Math.max(
          0,
          Math.min(plan.limit ?? Number.POSITIVE_INFINITY, this.maxRows + 1, MAX_RESULT_WINDOW - from),
        )
        const answer = await this.search({ ...body, from, size: window })
        const rows = (answer.hits?.hits ?? []).map((h) => {
          const row: Row = {}
          for (const o of plan.columns) row[o.name] = this.value(sourceValue(h._source ?? {}, o.field ?? ''), o)
          return row
        })
        return {
          columns: this.columns(plan.columns),
          rows: rows.slice(0, this.maxRows),
          truncated: rows.length > this.maxRows,
        }
      }
      case 'count': {
        const bound = plan.limit ?? this.maxRows + 1
        let n: number
        if (plan.of === 'metrics') n = 1
        else if (plan.of === 'hits') n = totalOf(await this.search(body))
        else n = (await this.buckets(body, bound)).length
        n = Math.min(n, bound)
        return {
          columns: [{ name: plan.name, dataType: 'integer' }],
          rows: [{ [plan.name]: n }],
          truncated: plan.limit === null && n > this.maxRows,
        }
      }
    }
  }

  /** Composite buckets, page after page (`after_key`), until the end or `want` of them. */
  private async buckets(body: Record<string, unknown>, want: number): Promise<Bucket[]> {
    const out: Bucket[] = []
    let after: Row | undefined
    for (;;) {
      const answer = await this.search(withAfter(body, after))
      const groups = answer.aggregations?.groups
      const page = groups?.buckets ?? []
      out.push(...page)
      after = groups?.after_key
      if (page.length === 0 || after === undefined || out.length >= want) return out
    }
  }

  private bucketRow(b: Bucket, outputs: readonly Output[]): Row {
    const row: Row = {}
    for (const o of outputs) {
      const raw =
        o.from === 'key'
          ? b.key[o.source ?? '']
          : o.from === 'doc_count'
            ? b.doc_count
            : (b[o.agg ?? ''] as { value?: unknown } | undefined)?.value
      row[o.name] = this.value(raw, o)
    }
    return row
  }
}

function totalOf(answer: SearchAnswer): number {
  const t = answer.hits?.total
  return typeof t === 'number' ? t : (t?.value ?? 0)
}

/** The body with `aggs.groups.composite.after` set (a new object: the statement is not changed). */
function withAfter(body: Record<string, unknown>, after: Row | undefined): Record<string, unknown> {
  if (after === undefined) return body
  const aggs = body.aggs as { groups: { composite: Record<string, unknown> } & Record<string, unknown> }
  return {
    ...body,
    aggs: { ...aggs, groups: { ...aggs.groups, composite: { ...aggs.groups.composite, after } } },
  }
}

/** SQL's default order: NULLs last ascending, first descending. */
function comparator(order: readonly { column: string; direction: 'asc' | 'desc' }[]) {
  return (a: Row, b: Row): number => {
    for (const { column, direction } of order) {
      const x = a[column]
      const y = b[column]
      const sign = direction === 'asc' ? 1 : -1
      if (x === y) continue
      if (x === null || x === undefined) return sign
      if (y === null || y === undefined) return -sign
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x) < String(y) ? -1 : 1
      if (c !== 0) return sign * c
    }
    return 0
  }
}
