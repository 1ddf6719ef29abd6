/**
 * A local stand-in for BigQuery, speaking the parts of the REST API v2 that @google-cloud/bigquery
 * uses (https://cloud.google.com/bigquery/docs/reference/rest), so the connector is tested through
 * the real SDK: nothing of it is mocked.
 *
 * - OAuth 2.0 token endpoint (`POST /token`): the service account's JWT bearer assertion, its
 *   RS256 signature verified against the test key's public key (oauth.ts); every API call then
 *   needs the issued bearer token (else 401 in Google's error format).
 * - jobs.insert (asynchronous: the job runs after the answer), jobs.query, jobs.get,
 *   jobs.getQueryResults (long-poll with `timeoutMs`, `maxResults` + `pageToken` paging,
 *   `formatOptions.useInt64Timestamp`, raw `f`/`v` rows), jobs.cancel, `jobTimeoutMs`
 *   (the job stops as timed out), datasets.list (paged) / datasets.get, tables.list / tables.get.
 * - Errors as Google sends them: `{ error: { code, message, errors: [{ reason, message }], status } }`
 *   with reasons invalidQuery, notFound, stopped, unauthorized.
 *
 * The SQL runs on DuckDB (@duckdb/node-api, in-process): datasets are DuckDB schemas, named query
 * parameters are bound as DuckDB parameters (typed from `parameterType`), the default dataset is
 * the connection's schema and the `time_zone` connection property its TimeZone. DuckDB SQL is
 * close to but not GoogleSQL (sql.ts translates quoting and parameters only): the stand-in proves
 * the transport (login, submit, poll, page, cancel, errors), never the dialect.
 */
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  BIGINT,
  BOOLEAN,
  DATE,
  DOUBLE,
  type DuckDBConnection,
  DuckDBDateValue,
  DuckDBInstance,
  DuckDBTimestampTZValue,
  type DuckDBType,
  type DuckDBValue,
  LIST,
  listValue,
  TIMESTAMPTZ,
  VARCHAR,
} from '@duckdb/node-api'
import { checkAssertion, GOOGLE_TOKEN_URL, makeKey, type TestKey } from './oauth.js'
import { MACROS, toDuckdb } from './sql.js'

interface SchemaField {
  name: string
  type: string
  mode: string
}

interface QueryParameter {
  name?: string
  parameterType: { type: string; arrayType?: { type: string } }
  parameterValue: { value?: unknown; arrayValues?: { value?: unknown }[] }
}

interface QueryConfig {
  query: string
  useLegacySql?: boolean
  queryParameters?: QueryParameter[]
  defaultDataset?: { projectId?: string; datasetId: string }
  connectionProperties?: { key: string; value: string }[]
}

interface JobState {
  readonly id: string
  readonly location: string
  readonly sql: string
  readonly configuration: { query: QueryConfig; jobTimeoutMs?: string; labels?: Record<string, string> }
  state: 'RUNNING' | 'DONE'
  error?: { reason: string; message: string; code: number }
  schema?: SchemaField[]
  rows?: (string | null)[][] // REST text per cell
  timestampsMicros?: boolean
  connection?: DuckDBConnection
  done: Promise<void>
}

export interface BigqueryStandIn {
  /** `apiEndpoint` for the connector (the SDK appends /bigquery/v2). */
  readonly url: string
  readonly projectId: string
  readonly location: string
  /** A key the stand-in accepts; its token_uri is the stand-in's. */
  readonly key: TestKey
  /** Runs DuckDB SQL directly (fixture data). */
  admin(sql: string): Promise<void>
  /** Jobs still running whose SQL contains `marker`. */
  running(marker: string): number
  /** The configuration of every job received, in order (what the SDK sent). */
  readonly jobs: readonly JobState['configuration'][]
  /** Token requests answered (issued or refused). */
  readonly tokenRequests: number
  /** getQueryResults calls answered with rows (pages read). */
  readonly pagesServed: number
  close(): Promise<void>
}

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
}

function googleError(res: http.ServerResponse, code: number, reason: string, message: string): void {
  send(res, code, {
    error: { code, message, errors: [{ message, domain: 'global', reason }], status: STATUS[code] ?? 'UNKNOWN' },
  })
}

function send(res: http.ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json; charset=UTF-8' })
  res.end(JSON.stringify(body))
}

async function body(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** DuckDB type → BigQuery's legacy type name as the REST API reports it in schemas. */
function bigqueryType(duck: string): string {
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT)$/.test(duck)) return 'INTEGER'
  if (/^(DOUBLE|FLOAT|REAL)$/.test(duck)) return 'FLOAT'
  if (/^DECIMAL/.test(duck)) return 'NUMERIC'
  if (duck === 'BOOLEAN') return 'BOOLEAN'
  if (duck === 'DATE') return 'DATE'
  if (duck === 'TIMESTAMP WITH TIME ZONE') return 'TIMESTAMP'
  if (/^TIMESTAMP/.test(duck)) return 'DATETIME'
  if (duck === 'BLOB') return 'BYTES'
  return 'STRING'
}

/** One DuckDB value as the REST API's cell text for that BigQuery type. */
function cellText(value: DuckDBValue, type: string, micros: boolean): string | null {
  if (value === null) return null
  switch (type) {
    case 'BOOLEAN':
      return value ? 'true' : 'false'
    case 'TIMESTAMP': {
      const us = (value as DuckDBTimestampTZValue).micros
      return micros ? us.toString() : String(Number(us) / 1e6)
    }
    case 'DATETIME':
      return String(value).replace(' ', 'T')
    default:
      return String(value)
  }
}

function duckType(t: QueryParameter['parameterType']): DuckDBType {
  switch (t.type) {
    case 'INT64':
    case 'INTEGER':
      return BIGINT
    case 'FLOAT64':
    case 'FLOAT':
      return DOUBLE
    case 'BOOL':
    case 'BOOLEAN':
      return BOOLEAN
    case 'TIMESTAMP':
      return TIMESTAMPTZ
    case 'DATE':
      return DATE
    case 'ARRAY':
      return LIST(duckType(t.arrayType ?? { type: 'STRING' }))
    default:
      return VARCHAR
  }
}

/** A parameter value: text per the REST reference, though the SDK sends booleans and numbers as JSON values. */
function duckValue(value: unknown, type: string): DuckDBValue {
  if (value === null || value === undefined) return null
  const text = String(value)
  switch (type) {
    case 'INT64':
    case 'INTEGER':
      return BigInt(text)
    case 'FLOAT64':
    case 'FLOAT':
      return Number(text)
    case 'BOOL':
    case 'BOOLEAN':
      return text.toLowerCase() === 'true'
    case 'TIMESTAMP':
      return new DuckDBTimestampTZValue(BigInt(Date.parse(text.replace(' ', 'T'))) * 1000n)
    case 'DATE': {
      const [year, month, day] = text.split('-').map(Number) as [number, number, number]
      return DuckDBDateValue.fromParts({ year, month, day })
    }
    default:
      return text
  }
}

export async function startBigqueryStandIn(
  /** maxPageRows: the most rows one page carries (BigQuery caps pages by size), to exercise pageToken. */
  options: { projectId?: string; location?: string; maxPageRows?: number } = {},
): Promise<BigqueryStandIn> {
  const projectId = options.projectId ?? 'strata-standin'
  const location = options.location ?? 'US'
  const instance = await DuckDBInstance.create(':memory:')
  const setup = await instance.connect()
  for (const macro of MACROS) await setup.run(macro)
  const tokens = new Set<string>()
  const jobs = new Map<string, JobState>()
  const received: JobState['configuration'][] = []
  let tokenRequests = 0
  let pagesServed = 0
  let base = ''
  let key: TestKey | undefined

  async function datasets(): Promise<string[]> {
    const reader = await setup.runAndReadAll(
      "SELECT schema_name FROM information_schema.schemata WHERE catalog_name = current_database() AND schema_name NOT IN ('information_schema', 'pg_catalog') ORDER BY 1",
    )
    return reader.getRows().map((r) => String(r[0]))
  }

  async function tableSchema(dataset: string, table: string): Promise<SchemaField[]> {
    const prepared = await setup.prepare(
      'SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position',
    )
    prepared.bind([dataset, table])
    const reader = await prepared.runAndReadAll()
    return reader.getRows().map((r) => ({
      name: String(r[0]),
      type: bigqueryType(String(r[1])),
      mode: r[2] === 'YES' ? 'NULLABLE' : 'REQUIRED',
    }))
  }

  async function tables(dataset: string): Promise<string[]> {
    const prepared = await setup.prepare(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
    )
    prepared.bind([dataset])
    return (await prepared.runAndReadAll()).getRows().map((r) => String(r[0]))
  }

  /** Runs the job on its own DuckDB connection; records the rows or Google's error. */
  async function run(job: JobState): Promise<void> {
    const config = job.configuration.query
    const connection = await instance.connect()
    job.connection = connection
    const limit = Number(job.configuration.jobTimeoutMs ?? 0)
    const timer =
      limit > 0
        ? setTimeout(() => {
            if (job.state !== 'RUNNING') return
            job.error = {
              code: 400,
              reason: 'stopped',
              message: `Job execution was cancelled: Job timed out after ${limit} ms`,
            }
            connection.interrupt()
          }, limit)
        : undefined
    try {
      if (config.useLegacySql !== false) throw Object.assign(new Error('the stand-in runs standard SQL only'), {})
      if (config.defaultDataset) {
        if (!(await datasets()).includes(config.defaultDataset.datasetId)) {
          job.error = {
            code: 404,
            reason: 'notFound',
            message: `Not found: Dataset ${projectId}:${config.defaultDataset.datasetId}`,
          }
          return
        }
        await connection.run(`SET schema = '${config.defaultDataset.datasetId.replaceAll("'", "''")}'`)
      }
      const zone = config.connectionProperties?.find((p) => p.key === 'time_zone')?.value
      if (zone !== undefined) await connection.run(`SET TimeZone = '${zone.replaceAll("'", "''")}'`)
      const prepared = await connection.prepare(toDuckdb(config.query))
      const values: Record<string, DuckDBValue> = {}
      const types: Record<string, DuckDBType> = {}
      for (const p of config.queryParameters ?? []) {
        const name = p.name ?? ''
        types[name] = duckType(p.parameterType)
        values[name] =
          p.parameterType.type === 'ARRAY'
            ? listValue(
                (p.parameterValue.arrayValues ?? []).map((v) =>
                  duckValue(v.value, p.parameterType.arrayType?.type ?? 'STRING'),
                ),
              )
            : duckValue(p.parameterValue.value, p.parameterType.type)
      }
      if (Object.keys(values).length > 0) prepared.bind(values, types)
      const reader = await prepared.runAndReadAll()
      const names = reader.columnNames()
      const bqTypes = reader.columnTypes().map((t) => bigqueryType(String(t)))
      job.schema = names.map((name, i) => ({ name, type: bqTypes[i] as string, mode: 'NULLABLE' }))
      job.rows = reader.getRows().map((row) => row.map((v, i) => cellText(v, bqTypes[i] as string, true)))
    } catch (err) {
      job.error ??=
        job.state === 'RUNNING' && (err as Error).message.includes('INTERRUPT')
          ? { code: 400, reason: 'stopped', message: 'Job execution was cancelled: User requested cancellation' }
          : { code: 400, reason: 'invalidQuery', message: (err as Error).message.split('\n')[0] ?? 'invalid query' }
    } finally {
      clearTimeout(timer)
      job.state = 'DONE'
      job.connection = undefined
      connection.closeSync()
    }
  }

  function jobResource(job: JobState) {
    return {
      kind: 'bigquery#job',
      id: `${projectId}:${job.location}.${job.id}`,
      jobReference: { projectId, jobId: job.id, location: job.location },
      configuration: { ...job.configuration, jobType: 'QUERY' },
      status: {
        state: job.state,
        ...(job.error
          ? { errorResult: { reason: job.error.reason, message: job.error.message }, errors: [job.error] }
          : {}),
      },
    }
  }

  /** The getQueryResults answer once the job is done: one page of raw rows, or the job's error. */
  function results(res: http.ServerResponse, job: JobState, query: URLSearchParams): void {
    if (job.state !== 'DONE') {
      send(res, 200, {
        kind: 'bigquery#getQueryResultsResponse',
        jobReference: jobResource(job).jobReference,
        jobComplete: false,
      })
      return
    }
    if (job.error) {
      googleError(res, job.error.code, job.error.reason, job.error.message)
      return
    }
    const rows = job.rows ?? []
    const start = Number(query.get('pageToken') ?? query.get('startIndex') ?? 0)
    const size = Math.min(Number(query.get('maxResults') ?? 100_000) || 100_000, options.maxPageRows ?? 100_000)
    const page = rows.slice(start, start + size)
    const micros = query.get('formatOptions.useInt64Timestamp') === 'true'
    pagesServed++
    const types = (job.schema ?? []).map((f) => f.type)
    send(res, 200, {
      kind: 'bigquery#getQueryResultsResponse',
      jobReference: jobResource(job).jobReference,
      schema: { fields: job.schema ?? [] },
      totalRows: String(rows.length),
      rows: page.map((row) => ({
        f: row.map((v, i) => ({
          v: types[i] === 'TIMESTAMP' && v !== null && !micros ? String(Number(v) / 1e6) : v,
        })),
      })),
      ...(start + size < rows.length ? { pageToken: String(start + size) } : {}),
      jobComplete: true,
      cacheHit: false,
    })
  }

  /** Waits until the job is done or `ms` passed (the API's long-poll). */
  async function settle(job: JobState, ms: number): Promise<void> {
    await Promise.race([job.done, new Promise((resolve) => setTimeout(resolve, ms))])
  }

  function submit(config: JobState['configuration'], jobId: string, jobLocation: string): JobState {
    received.push(config)
    const job: JobState = {
      id: jobId,
      location: jobLocation,
      sql: config.query.query,
      configuration: config,
      state: 'RUNNING',
      done: Promise.resolve(),
    }
    jobs.set(jobId, job)
    job.done = new Promise<void>((resolve) => setImmediate(() => run(job).finally(resolve)))
    return job
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base)
    const path = url.pathname
    if (req.method === 'POST' && path === '/token') {
      tokenRequests++
      const form = new URLSearchParams(await body(req))
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
        return send(res, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' })
      }
      const refusal = checkAssertion(form.get('assertion') ?? '', key!, [GOOGLE_TOKEN_URL, `${base}/token`])
      if (refusal !== undefined) return send(res, 400, { error: 'invalid_grant', error_description: refusal })
      const token = `ya29.standin-${randomBytes(16).toString('hex')}`
      tokens.add(token)
      return send(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' })
    }
    const prefix = `/bigquery/v2/projects/${projectId}`
    if (!path.startsWith('/bigquery/v2/projects/')) return googleError(res, 404, 'notFound', `Not found: ${path}`)
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    if (bearer === undefined || !tokens.has(bearer)) {
      return googleError(
        res,
        401,
        'unauthorized',
        'Request is missing required authentication credential. Expected OAuth 2 access token.',
      )
    }
    if (!path.startsWith(`${prefix}/`)) {
      return googleError(
        res,
        403,
        'accessDenied',
        'Access Denied: Project: User does not have bigquery.jobs.create permission in this project.',
      )
    }
    const rest = path.slice(prefix.length)
    if (req.method === 'GET' && rest === '/datasets') {
      const all = await datasets()
      const start = Number(url.searchParams.get('pageToken') ?? 0)
      const size = Number(url.searchParams.get('maxResults') ?? 50) || 50
      return send(res, 200, {
        kind: 'bigquery#datasetList',
        datasets: all.slice(start, start + size).map((id) => ({
          kind: 'bigquery#dataset',
          id: `${projectId}:${id}`,
          datasetReference: { projectId, datasetId: id },
          location,
        })),
        ...(start + size < all.length ? { nextPageToken: String(start + size) } : {}),
      })
    }
    const datasetPath = /^\/datasets\/([^/]+)(\/tables(?:\/([^/]+))?)?$/.exec(rest)
    if (datasetPath && req.method === 'GET') {
      const m = datasetPath
      const dataset = decodeURIComponent(m[1] as string)
      if (!(await datasets()).includes(dataset)) {
        return googleError(res, 404, 'notFound', `Not found: Dataset ${projectId}:${dataset}`)
      }
      if (m[2] === undefined) {
        return send(res, 200, {
          kind: 'bigquery#dataset',
          id: `${projectId}:${dataset}`,
          datasetReference: { projectId, datasetId: dataset },
          location,
        })
      }
      const ref = (tableId: string) => ({ projectId, datasetId: dataset, tableId })
      if (m[3] === undefined) {
        const list = await tables(dataset)
        return send(res, 200, {
          kind: 'bigquery#tableList',
          tables: list.map((t) => ({
            kind: 'bigquery#table',
            id: `${projectId}:${dataset}.${t}`,
            tableReference: ref(t),
            type: 'TABLE',
          })),
          totalItems: list.length,
        })
      }
      const table = decodeURIComponent(m[3])
      if (!(await tables(dataset)).includes(table)) {
        return googleError(res, 404, 'notFound', `Not found: Table ${projectId}:${dataset}.${table}`)
      }
      return send(res, 200, {
        kind: 'bigquery#table',
        id: `${projectId}:${dataset}.${table}`,
        tableReference: ref(table),
        schema: { fields: await tableSchema(dataset, table) },
        type: 'TABLE',
        location,
      })
    }
    if (req.method === 'POST' && rest === '/jobs') {
      const resource = JSON.parse(await body(req)) as {
        jobReference?: { jobId?: string; location?: string }
        configuration: JobState['configuration']
      }
      const jobId = resource.jobReference?.jobId ?? randomBytes(12).toString('hex')
      if (jobs.has(jobId))
        return googleError(res, 409, 'duplicate', `Already Exists: Job ${projectId}:${location}.${jobId}`)
      const job = submit(resource.configuration, jobId, resource.jobReference?.location ?? location)
      return send(res, 200, jobResource(job))
    }
    if (req.method === 'POST' && rest === '/queries') {
      // jobs.query: submit, wait up to timeoutMs, answer like getQueryResults
      const request = JSON.parse(await body(req)) as QueryConfig & {
        timeoutMs?: number
        maxResults?: number
        jobTimeoutMs?: string
        location?: string
      }
      const { timeoutMs, maxResults, jobTimeoutMs, location: where, ...query } = request
      const job = submit(
        { query, ...(jobTimeoutMs ? { jobTimeoutMs } : {}) },
        randomBytes(12).toString('hex'),
        where ?? location,
      )
      await settle(job, timeoutMs ?? 10_000)
      const params = new URLSearchParams(maxResults ? { maxResults: String(maxResults) } : {})
      params.set('formatOptions.useInt64Timestamp', 'true')
      return results(res, job, params)
    }
    const m = /^\/(jobs|queries)\/([^/]+)(\/cancel)?$/.exec(rest)
    if (m) {
      const job = jobs.get(decodeURIComponent(m[2] as string))
      if (job === undefined) return googleError(res, 404, 'notFound', `Not found: Job ${projectId}:${m[2]}`)
      if (m[1] === 'jobs' && m[3] !== undefined && req.method === 'POST') {
        if (job.state === 'RUNNING') {
          job.error ??= {
            code: 400,
            reason: 'stopped',
            message: 'Job execution was cancelled: User requested cancellation',
          }
          job.connection?.interrupt()
        }
        return send(res, 200, { kind: 'bigquery#jobCancelResponse', job: jobResource(job) })
      }
      if (m[1] === 'jobs' && req.method === 'GET') return send(res, 200, jobResource(job))
      if (m[1] === 'queries' && req.method === 'GET') {
        await settle(job, Number(url.searchParams.get('timeoutMs') ?? 1000))
        return results(res, job, url.searchParams)
      }
    }
    return googleError(res, 404, 'notFound', `Not found: ${req.method} ${path}`)
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) googleError(res, 500, 'internalError', (err as Error).message)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  key = makeKey(projectId, `${base}/token`)

  return {
    url: base,
    projectId,
    location,
    key,
    admin: async (sql) => {
      await setup.run(sql)
    },
    running: (marker) => [...jobs.values()].filter((j) => j.state === 'RUNNING' && j.sql.includes(marker)).length,
    jobs: received,
    get tokenRequests() {
      return tokenRequests
    },
    get pagesServed() {
      return pagesServed
    },
    close: async () => {
      for (const job of jobs.values()) job.connection?.interrupt()
      await Promise.all([...jobs.values()].map((j) => j.done))
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      setup.closeSync()
      instance.closeSync()
    },
  }
}
