/**
 * A stand-in for Amazon Athena's API: the AWS JSON 1.1 protocol (POST /, `X-Amz-Target:
 * AmazonAthena.<Operation>`, `Content-Type: application/x-amz-json-1.1`, errors as
 * `{"__type": "<Exception>", "Message": …}`), every request's SigV4 signature verified against the
 * key pairs it knows (sigv4.ts), executing the SQL on DuckDB (../duckdb-engine.ts). DuckDB is not
 * Trino nor Athena: this proves the transport through the official SDK, never Athena's SQL.
 * Operations, as the Athena API reference describes them:
 * - StartQueryExecution (QueryExecutionContext.Catalog/Database, WorkGroup, ResultConfiguration.
 *   OutputLocation s3://, ExecutionParameters: literal text for each `?`, in order);
 * - GetQueryExecution: QUEUED, then RUNNING while DuckDB works, then SUCCEEDED, FAILED (with
 *   StateChangeReason and AthenaError) or CANCELLED;
 * - GetQueryResults: pages of `pageSize` rows with NextToken; the first row of the first page is
 *   the header (column names); values as VarCharValue text, null as an empty Datum;
 * - StopQueryExecution (DuckDB interrupted), GetWorkGroup, ListDatabases, GetDatabase,
 *   ListTableMetadata (Glue/Hive type names), each paged where Athena pages.
 * The one catalog is AwsDataCatalog; its databases are DuckDB schemas. Athena has no session
 * time zone: zoned values are rendered in UTC.
 */
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { DuckDBValue } from '@duckdb/node-api'
import { DuckdbEngine, type EngineResult, type RunningStatement } from '../../../../test/standins/duckdb-engine.js'
import { verifySigV4 } from '../../../../test/standins/sigv4.js'

export const CATALOG = 'AwsDataCatalog'
const HIDDEN_SCHEMAS = new Set(['information_schema', 'pg_catalog'])

export interface AthenaStandInOptions {
  /** Known key pairs: access key id → secret. */
  readonly keys: Readonly<Record<string, string>>
  readonly workGroups?: readonly string[]
  readonly pageSize?: number
}

type State = 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED'

interface Execution {
  readonly id: string
  readonly sql: string
  readonly request: Record<string, unknown>
  state: State
  polls: number
  reason?: string
  running?: RunningStatement
  result?: EngineResult
  done: boolean
}

export interface AthenaStandIn {
  readonly url: string
  readonly port: number
  readonly engine: DuckdbEngine
  /** Every operation received, with its request body and the access key id that signed it. */
  readonly calls: { readonly target: string; readonly body: Record<string, unknown>; readonly accessKeyId: string }[]
  running(marker: string): number
  close(): Promise<void>
}

class AwsError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message)
  }
}

/** DuckDB type → the name Athena's ColumnInfo.Type reports. */
function athenaType(duck: string): string {
  const t = duck.toUpperCase()
  if (t === 'INTEGER') return 'integer'
  if (t === 'BIGINT' || t === 'HUGEINT') return 'bigint'
  if (t.startsWith('DECIMAL')) return 'decimal'
  if (t === 'DOUBLE') return 'double'
  if (t === 'BOOLEAN') return 'boolean'
  if (t === 'DATE') return 'date'
  if (t === 'TIMESTAMP WITH TIME ZONE') return 'timestamp with time zone'
  if (t.startsWith('TIMESTAMP')) return 'timestamp'
  if (t.endsWith('[]')) return 'array'
  return 'varchar'
}

/** DuckDB type → the Glue/Hive name ListTableMetadata reports. */
function glueType(duck: string): string {
  const t = duck.toUpperCase()
  if (t === 'INTEGER') return 'int'
  if (t === 'VARCHAR') return 'string'
  return t.toLowerCase()
}

/** A value as Athena's VarCharValue text. */
function text(value: DuckDBValue, type: string): string | undefined {
  if (value === null) return undefined
  if (type === 'TIMESTAMP WITH TIME ZONE' && typeof value === 'object' && 'micros' in value) {
    const iso = new Date(Number((value as { micros: bigint }).micros / 1000n)).toISOString()
    return `${iso.slice(0, 10)} ${iso.slice(11, 23)} UTC`
  }
  if (type.startsWith('TIMESTAMP')) {
    const s = String(value)
    return /\.\d+$/.test(s) ? s : `${s}.000`
  }
  return String(value)
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

export async function startAthenaStandIn(options: AthenaStandInOptions): Promise<AthenaStandIn> {
  const engine = await DuckdbEngine.create()
  const executions = new Map<string, Execution>()
  const calls: AthenaStandIn['calls'] = []
  const pageSize = options.pageSize ?? 1000
  const workGroups = new Set(['primary', ...(options.workGroups ?? [])])

  const schemas = async (): Promise<string[]> => {
    const r = await engine.start(
      "SELECT schema_name FROM information_schema.schemata WHERE catalog_name = 'memory' ORDER BY schema_name",
    ).result
    return r.rows.map((row) => String(row[0])).filter((s) => !HIDDEN_SCHEMAS.has(s))
  }
  const checkCatalog = (body: Record<string, unknown>) => {
    const catalog = str(body.CatalogName) ?? CATALOG
    if (catalog !== CATALOG) throw new AwsError('MetadataException', `Catalog ${catalog} not found`)
  }
  const checkDatabase = async (name: string | undefined) => {
    if (name === undefined || !(await schemas()).includes(name)) {
      throw new AwsError('MetadataException', `Database ${name ?? ''} not found.`)
    }
  }
  /** NextToken is the offset, as an opaque string. */
  const page = <T>(items: readonly T[], body: Record<string, unknown>, max: number) => {
    const start = Number(str(body.NextToken) ?? 0)
    const size = Math.min(typeof body.MaxResults === 'number' ? body.MaxResults : max, max)
    const slice = items.slice(start, start + size)
    return { slice, next: start + size < items.length ? String(start + size) : undefined }
  }

  const operations: Record<string, (body: Record<string, unknown>) => Promise<unknown>> = {
    GetWorkGroup: async (body) => {
      const name = str(body.WorkGroup) ?? ''
      if (!workGroups.has(name)) throw new AwsError('InvalidRequestException', `WorkGroup ${name} is not found.`)
      return { WorkGroup: { Name: name, State: 'ENABLED' } }
    },
    ListDatabases: async (body) => {
      checkCatalog(body)
      const { slice, next } = page(await schemas(), body, 50)
      return { DatabaseList: slice.map((Name) => ({ Name })), ...(next ? { NextToken: next } : {}) }
    },
    GetDatabase: async (body) => {
      checkCatalog(body)
      await checkDatabase(str(body.DatabaseName))
      return { Database: { Name: body.DatabaseName } }
    },
    ListTableMetadata: async (body) => {
      checkCatalog(body)
      const database = str(body.DatabaseName)
      await checkDatabase(database)
      const r = await engine.start(
        'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_catalog = ? AND table_schema = ? ORDER BY table_name, ordinal_position',
        { literals: ["'memory'", `'${(database ?? '').replaceAll("'", "''")}'`] },
      ).result
      const tables = new Map<string, { Name: string; Columns: { Name: string; Type: string }[]; PartitionKeys: [] }>()
      for (const [table, column, type] of r.rows) {
        const name = String(table)
        if (!tables.has(name)) tables.set(name, { Name: name, Columns: [], PartitionKeys: [] })
        tables.get(name)?.Columns.push({ Name: String(column), Type: glueType(String(type)) })
      }
      const { slice, next } = page([...tables.values()], body, 50)
      return { TableMetadataList: slice, ...(next ? { NextToken: next } : {}) }
    },
    StartQueryExecution: async (body) => {
      const sql = str(body.QueryString)
      if (!sql) throw new AwsError('InvalidRequestException', 'QueryString is required')
      const output = (body.ResultConfiguration as { OutputLocation?: unknown } | undefined)?.OutputLocation
      if (typeof output !== 'string' || !output.startsWith('s3://')) {
        throw new AwsError('InvalidRequestException', 'No output location provided. An output location is required.')
      }
      const workGroup = str(body.WorkGroup) ?? 'primary'
      if (!workGroups.has(workGroup))
        throw new AwsError('InvalidRequestException', `WorkGroup ${workGroup} is not found.`)
      const context = (body.QueryExecutionContext ?? {}) as { Catalog?: unknown; Database?: unknown }
      if ((str(context.Catalog) ?? CATALOG) !== CATALOG) {
        throw new AwsError('InvalidRequestException', `Catalog ${String(context.Catalog)} not found`)
      }
      const params = body.ExecutionParameters
      if (params !== undefined && (!Array.isArray(params) || params.some((p) => typeof p !== 'string'))) {
        throw new AwsError('InvalidRequestException', 'ExecutionParameters must be strings')
      }
      const e: Execution = { id: randomUUID(), sql, request: body, state: 'QUEUED', polls: 0, done: false }
      executions.set(e.id, e)
      const database = str(context.Database)
      if (database !== undefined && !(await schemas()).includes(database)) {
        e.state = 'FAILED'
        e.reason = `SCHEMA_NOT_FOUND: line 1:1: Schema '${database}' does not exist`
        return { QueryExecutionId: e.id }
      }
      e.running = engine.start(sql, {
        ...(Array.isArray(params) && params.length > 0 ? { literals: params as string[] } : {}),
        ...(database !== undefined ? { schema: database } : {}),
        timeZone: 'UTC',
      })
      e.running.result.then(
        (result) => {
          e.done = true
          if (e.state === 'CANCELLED') return
          e.result = result
          e.state = 'SUCCEEDED'
        },
        (err: unknown) => {
          e.done = true
          if (e.state === 'CANCELLED') return
          e.state = 'FAILED'
          e.reason = (err as Error).message
        },
      )
      return { QueryExecutionId: e.id }
    },
    GetQueryExecution: async (body) => {
      const e = executions.get(str(body.QueryExecutionId) ?? '')
      if (!e) throw new AwsError('InvalidRequestException', 'QueryExecution not found')
      e.polls++
      // Athena reports QUEUED first; RUNNING while the engine works
      const state = e.state !== 'QUEUED' ? e.state : e.polls === 1 ? 'QUEUED' : 'RUNNING'
      return {
        QueryExecution: {
          QueryExecutionId: e.id,
          Query: e.sql,
          StatementType: 'DML',
          WorkGroup: str(e.request.WorkGroup) ?? 'primary',
          QueryExecutionContext: e.request.QueryExecutionContext,
          ResultConfiguration: {
            OutputLocation: `${(e.request.ResultConfiguration as { OutputLocation: string }).OutputLocation}${e.id}.csv`,
          },
          ExecutionParameters: e.request.ExecutionParameters,
          Status: {
            State: state,
            ...(e.reason
              ? {
                  StateChangeReason: e.reason,
                  AthenaError: { ErrorCategory: 2, ErrorType: 1006, Retryable: false, ErrorMessage: e.reason },
                }
              : {}),
          },
        },
      }
    },
    GetQueryResults: async (body) => {
      const e = executions.get(str(body.QueryExecutionId) ?? '')
      if (!e) throw new AwsError('InvalidRequestException', 'QueryExecution not found')
      if (e.state !== 'SUCCEEDED' || !e.result) {
        throw new AwsError('InvalidRequestException', `Query has not yet finished. Current state: ${e.state}`)
      }
      const result = e.result
      const header = { Data: result.columns.map((c) => ({ VarCharValue: c.name })) }
      const rows = [
        header,
        ...result.rows.map((row) => ({
          Data: row.map((v, i) => {
            const t = text(v, result.columns[i]?.type ?? '')
            return t === undefined ? {} : { VarCharValue: t }
          }),
        })),
      ]
      const { slice, next } = page(rows, body, pageSize)
      return {
        ResultSet: {
          Rows: slice,
          ResultSetMetadata: {
            ColumnInfo: result.columns.map((c) => ({
              CatalogName: 'hive',
              Name: c.name,
              Label: c.name,
              Type: athenaType(c.type),
              Nullable: 'UNKNOWN',
            })),
          },
        },
        UpdateCount: 0,
        ...(next ? { NextToken: next } : {}),
      }
    },
    StopQueryExecution: async (body) => {
      const e = executions.get(str(body.QueryExecutionId) ?? '')
      if (!e) throw new AwsError('InvalidRequestException', 'QueryExecution not found')
      if (e.state === 'QUEUED' || e.state === 'RUNNING') {
        e.state = 'CANCELLED'
        e.running?.interrupt()
      }
      return {}
    },
  }

  const handler = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks)
    const reply = (status: number, body: unknown, type?: string) => {
      res
        .writeHead(status, {
          'Content-Type': 'application/x-amz-json-1.1',
          'x-amzn-RequestId': randomUUID(),
          ...(type ? { 'x-amzn-ErrorType': type } : {}),
        })
        .end(JSON.stringify(body))
    }
    const fail = (e: AwsError) => reply(e.status, { __type: e.type, Message: e.message }, e.type)
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const target = /^AmazonAthena\.(\w+)$/.exec(String(req.headers['x-amz-target'] ?? ''))?.[1]
    if (req.method !== 'POST' || url.pathname !== '/' || !target) {
      return fail(new AwsError('UnknownOperationException', 'Unknown operation'))
    }
    if (!String(req.headers['content-type']).startsWith('application/x-amz-json-1.1')) {
      return fail(new AwsError('SerializationException', 'Expected application/x-amz-json-1.1'))
    }
    const signed = verifySigV4(req.method, url, req.headers, raw, options.keys)
    if (!signed.ok)
      return fail(new AwsError(signed.error, signed.message, signed.error === 'InvalidSignatureException' ? 403 : 400))
    if (signed.service !== 'athena')
      return fail(
        new AwsError('InvalidSignatureException', `Credential should be scoped to correct service: 'athena'`, 403),
      )
    const operation = operations[target]
    if (!operation) return fail(new AwsError('UnknownOperationException', `Unknown operation ${target}`))
    const body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>
    calls.push({ target, body, accessKeyId: signed.accessKeyId })
    try {
      reply(200, await operation(body))
    } catch (e) {
      if (e instanceof AwsError) return fail(e)
      return fail(new AwsError('InternalServerException', (e as Error).message, 500))
    }
  }

  const server = http.createServer((req, res) => {
    handler(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(e))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    engine,
    calls,
    running: (marker) =>
      [...executions.values()].filter((e) => e.sql.includes(marker) && e.running !== undefined && !e.done).length,
    close: async () => {
      for (const e of executions.values()) e.running?.interrupt()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await Promise.allSettled([...executions.values()].map((e) => e.running?.result))
      engine.close()
    },
  }
}
