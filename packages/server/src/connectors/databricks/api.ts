/**
 * A small client of Databricks' SQL Statement Execution API 2.0 over Node's fetch
 * (docs.databricks.com/api/workspace/statementexecution): submit `POST /api/2.0/sql/statements`,
 * status `GET /api/2.0/sql/statements/{id}`, further result chunks by the opaque
 * `next_chunk_internal_link` (or `GET …/result/chunks/{n}`), cancel `POST …/{id}/cancel`, all
 * with `Authorization: Bearer <token>`. The wire shapes below are the API's (snake_case JSON).
 *
 * Results are asked for with `disposition: EXTERNAL_LINKS` and `format: JSON_ARRAY`: INLINE
 * results are capped at 25 MiB (a larger one fails the statement), while external links have no
 * such cap. Each chunk then names presigned URLs (cloud storage), each holding a JSON array of
 * rows; they are fetched without our token (the URL carries its own credentials, and the API's
 * docs say not to send the Databricks token there), with the `http_headers` the chunk names.
 * Failures are thrown as the errors at the end of this file and read by errors.ts.
 */

import { jsonRows, type RawRow } from './json-rows.js'
import type { StatementParameter } from './params.js'

export type StatementState = 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELED' | 'CLOSED'

export interface ExecuteStatementRequest {
  readonly statement: string
  readonly warehouse_id: string
  readonly catalog?: string
  readonly schema?: string
  readonly parameters?: readonly StatementParameter[]
  /** String, e.g. "1001": the API's int64 fields travel as JSON numbers or strings. */
  readonly row_limit?: number
  readonly format: 'JSON_ARRAY'
  readonly disposition: 'INLINE' | 'EXTERNAL_LINKS'
  /** `0s` (answer at once with the statement ID) or 5–50 s. */
  readonly wait_timeout: string
  readonly on_wait_timeout: 'CONTINUE' | 'CANCEL'
}

export interface ColumnInfo {
  readonly name: string
  readonly type_name?: string
  readonly type_text?: string
  readonly position?: number
}

/** Where the next chunk is (on a chunk, or on the last external link of one). */
export interface NextChunk {
  readonly next_chunk_index?: number
  readonly next_chunk_internal_link?: string
}

/** EXTERNAL_LINKS: one presigned URL of a chunk's rows. */
export interface ExternalLink extends NextChunk {
  readonly external_link: string
  readonly chunk_index?: number
  readonly row_count?: number | string
  readonly expiration?: string
  /** Headers the download must carry (some clouds require them); never our token. */
  readonly http_headers?: Readonly<Record<string, string>>
}

export interface ResultData extends NextChunk {
  /** JSON_ARRAY: each value its string representation, or null. */
  readonly data_array?: (string | null)[][]
  readonly external_links?: readonly ExternalLink[]
  readonly chunk_index?: number
  readonly row_count?: number | string
}

/** The next chunk's pointer: a chunk's own, or that of its last external link. */
export function nextChunk(chunk: ResultData): NextChunk | undefined {
  const at = chunk.external_links?.at(-1) ?? chunk
  return at.next_chunk_internal_link !== undefined || at.next_chunk_index !== undefined ? at : undefined
}

export interface StatementResponse {
  readonly statement_id: string
  readonly status: {
    readonly state: StatementState
    readonly error?: { readonly error_code?: string; readonly message?: string }
    readonly sql_state?: string
  }
  readonly manifest?: {
    readonly format?: string
    readonly schema?: { readonly column_count?: number; readonly columns?: readonly ColumnInfo[] }
    readonly total_chunk_count?: number
    readonly total_row_count?: number | string
    readonly truncated?: boolean
  }
  readonly result?: ResultData
}

/** The service answered with an HTTP error (its JSON `error_code`/`message` when it gave one). */
export class DatabricksHttpError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string | undefined,
    /** The service's own message (JSON only: a foreign HTML page is never kept). */
    readonly serviceMessage: string | undefined,
  ) {
    super(`HTTP ${status}${errorCode ? ` ${errorCode}` : ''}${serviceMessage ? `: ${serviceMessage}` : ''}`)
    this.name = 'DatabricksHttpError'
  }
}

/** The answer was not the API's JSON (some other HTTP service at that address). */
export class NotDatabricksError extends Error {
  constructor(what: string) {
    super(`the server did not answer as the Databricks SQL Statement Execution API (${what})`)
    this.name = 'NotDatabricksError'
  }
}

/** The statement ended FAILED, CANCELED or CLOSED on the warehouse. */
export class StatementError extends Error {
  constructor(
    readonly state: StatementState,
    readonly errorCode: string | undefined,
    readonly serviceMessage: string | undefined,
    readonly sqlState: string | undefined,
  ) {
    super(
      state === 'FAILED'
        ? (serviceMessage ?? `the statement failed${errorCode ? ` (${errorCode})` : ''}`)
        : state === 'CANCELED'
          ? 'the statement was cancelled on the warehouse'
          : 'the statement was closed before its result was read',
    )
    this.name = 'StatementError'
  }
}

const MAX_MESSAGE = 1000

export class StatementClient {
  readonly #baseUrl: string
  readonly #token: string

  constructor(baseUrl: string, token: string) {
    this.#baseUrl = baseUrl
    this.#token = token
  }

  submit(body: ExecuteStatementRequest, signal: AbortSignal): Promise<StatementResponse> {
    return this.#call('POST', '/api/2.0/sql/statements', body, signal).then(statementResponse)
  }

  status(statementId: string, signal: AbortSignal): Promise<StatementResponse> {
    return this.#call('GET', `/api/2.0/sql/statements/${encodeURIComponent(statementId)}`, undefined, signal).then(
      statementResponse,
    )
  }

  /**
   * The next chunk: by `next_chunk_internal_link` when it is a path of this statement's chunks
   * on this workspace (the link is opaque, but our token only ever goes to our own host), else
   * by its index.
   */
  chunk(statementId: string, previous: NextChunk, signal: AbortSignal): Promise<ResultData> {
    const prefix = `/api/2.0/sql/statements/${encodeURIComponent(statementId)}/result/chunks/`
    const link = previous.next_chunk_internal_link
    const path =
      link?.startsWith(prefix) && /^\d+(\?[\w=&-]*)?$/.test(link.slice(prefix.length))
        ? (link as string)
        : `${prefix}${Number(previous.next_chunk_index)}`
    return this.#call('GET', path, undefined, signal).then(resultData)
  }

  /**
   * A chunk's rows: inline, or streamed from its external links (without our token), one link
   * after the other. A caller that stops iterating (its row limit reached) cancels the download
   * in progress and fetches no further link.
   */
  async *rows(chunk: ResultData, signal: AbortSignal): AsyncGenerator<RawRow> {
    if (chunk.external_links === undefined) {
      yield* chunk.data_array ?? []
      return
    }
    for (const link of chunk.external_links) yield* jsonRows(await download(link, signal))
  }

  async cancel(statementId: string, signal: AbortSignal): Promise<void> {
    await this.#call('POST', `/api/2.0/sql/statements/${encodeURIComponent(statementId)}/cancel`, {}, signal)
  }

  async #call(method: 'GET' | 'POST', path: string, body: unknown, signal: AbortSignal): Promise<unknown> {
    const res = await fetch(`${this.#baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.#token}`,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        'User-Agent': 'strata',
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      // A redirect is a login page or a proxy's, never the API: not followed with our token.
      redirect: 'manual',
      signal,
    })
    const text = await res.text()
    const json = parseJson(res.headers.get('content-type'), text)
    if (!res.ok) {
      const e = json as { error_code?: unknown; message?: unknown } | undefined
      throw new DatabricksHttpError(
        res.status,
        typeof e?.error_code === 'string' ? e.error_code.slice(0, 100) : undefined,
        typeof e?.message === 'string' ? e.message.slice(0, MAX_MESSAGE) : undefined,
      )
    }
    if (json === undefined) throw new NotDatabricksError(`HTTP ${res.status} without a JSON body`)
    return json
  }
}

function parseJson(contentType: string | null, text: string): unknown {
  if (!contentType?.toLowerCase().includes('json')) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

const STATES = new Set<string>(['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'CLOSED'])

function statementResponse(json: unknown): StatementResponse {
  const r = json as Partial<StatementResponse> | null
  if (typeof r?.statement_id !== 'string' || !STATES.has(String(r.status?.state))) {
    throw new NotDatabricksError('no statement_id and status')
  }
  return r as StatementResponse
}

function resultData(json: unknown): ResultData {
  const r = json as ResultData | null
  if (
    r === null ||
    typeof r !== 'object' ||
    (r.data_array !== undefined && !Array.isArray(r.data_array)) ||
    (r.external_links !== undefined &&
      (!Array.isArray(r.external_links) || r.external_links.some((l) => typeof l?.external_link !== 'string')))
  ) {
    throw new NotDatabricksError('no result chunk')
  }
  return r
}

/** One external link's body (a JSON array of arrays, read by jsonRows), fetched with only the headers it names. */
async function download(link: ExternalLink, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  let url: URL
  try {
    url = new URL(link.external_link)
  } catch {
    throw new NotDatabricksError('an external link that is not a URL')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new NotDatabricksError('an external link that is not http(s)')
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(link.http_headers ?? {})) {
    if (typeof v === 'string' && k.toLowerCase() !== 'authorization') headers[k] = v
  }
  const res = await fetch(url, { headers, redirect: 'follow', signal })
  // A presigned URL's own error (expired, refused) says nothing about our token: not an HTTP error of the API.
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined)
    throw new NotDatabricksError(`the result download from an external link answered HTTP ${res.status}`)
  }
  if (res.body === null) throw new NotDatabricksError('an external link whose content is not a JSON array of rows')
  return res.body
}

/** A terminal state other than SUCCEEDED, as the error it is. */
export function statementError(response: StatementResponse): StatementError {
  const { state, error, sql_state } = response.status
  return new StatementError(state, error?.error_code, error?.message?.slice(0, MAX_MESSAGE), sql_state)
}
