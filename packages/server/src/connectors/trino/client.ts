/**
 * Trino's client REST protocol over Node's fetch (https://trino.io/docs/current/develop/client-protocol.html):
 * POST /v1/statement with the SQL as body and the session as X-Trino-* headers, then GET each
 * `nextUri` until there is none; DELETE on a `nextUri` cancels the query. 502/503/504 are retried
 * after 50–100 ms as the protocol asks; any other non-200 status is a failure.
 * Why not `trino-client` (npm): it has no parameter API, no per-request abort signal and hides
 * `nextUri`, which our cancel (DELETE) and row cap (stop paging) need.
 */
import type { Dispatcher } from 'undici'

export interface TrinoColumn {
  readonly name: string
  readonly type: string
}

export interface TrinoErrorInfo {
  readonly message?: string
  readonly errorCode?: number
  readonly errorName?: string
  readonly errorType?: string
}

/** The protocol's QueryResults document (the fields we read). */
export interface QueryResults {
  readonly id?: string
  readonly nextUri?: string
  readonly columns?: readonly TrinoColumn[]
  readonly data?: readonly (readonly unknown[])[]
  readonly stats?: { readonly state?: string }
  readonly error?: TrinoErrorInfo
}

/** The query failed on the server: the QueryResults `error`. */
export class TrinoQueryError extends Error {
  constructor(readonly info: TrinoErrorInfo) {
    super(info.message ?? info.errorName ?? 'the query failed')
    this.name = 'TrinoQueryError'
  }
}

/** A non-200 answer (401: the credentials). The body is kept only when it is short plain text. */
export class TrinoHttpError extends Error {
  constructor(
    readonly status: number,
    readonly text: string | undefined,
  ) {
    super(text ? `HTTP ${status}: ${text}` : `HTTP ${status}`)
    this.name = 'TrinoHttpError'
  }
}

/** The answer was not Trino's JSON: some other service at that address. */
export class NotTrinoError extends Error {
  constructor() {
    super('the server did not answer as Trino')
    this.name = 'NotTrinoError'
  }
}

/**
 * Whether `uri` points at the same server as `base`: compared by origin (scheme, host and port
 * after URL parsing), never as text. Trino builds `nextUri` from the Host header a client sent,
 * which leaves out a default port and is in lower case: https://trino.example:443 is answered
 * with https://trino.example/v1/…, the same server.
 */
export function sameOrigin(base: string, uri: string): boolean {
  if (!URL.canParse(uri)) return false
  return new URL(uri).origin === new URL(base).origin
}

const RETRY_STATUSES = new Set([502, 503, 504])
const MAX_RETRIES = 5
const MAX_TEXT = 200

/**
 * One request of the protocol; returns the parsed JSON body. `dispatcher`: the connection pool
 * that trusts the datasource's private CA (docs/datasources.md#tls), else Node's default.
 */
export async function call(
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; dispatcher?: Dispatcher },
  signal: AbortSignal,
): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, { ...init, signal, redirect: 'error' } as RequestInit)
    if (RETRY_STATUSES.has(res.status) && attempt < MAX_RETRIES) {
      await res.body?.cancel()
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 50))
      continue
    }
    const text = await res.text()
    if (res.status !== 200) {
      const plain = (res.headers.get('content-type') ?? '').startsWith('text/plain') && text.length <= MAX_TEXT
      throw new TrinoHttpError(res.status, plain ? text.trim() : undefined)
    }
    try {
      return parseTrinoJson(text)
    } catch {
      throw new NotTrinoError()
    }
  }
}

/** DELETE on a nextUri: cancels the query. Fire and forget (bounded); never throws. */
export async function cancelQuery(
  nextUri: string,
  headers: Record<string, string>,
  timeoutMs: number,
  dispatcher?: Dispatcher,
): Promise<void> {
  try {
    const init = { method: 'DELETE', headers, signal: AbortSignal.timeout(timeoutMs), dispatcher }
    const res = await fetch(nextUri, init as RequestInit)
    await res.body?.cancel()
  } catch {
    // the query is gone or the server is: either way nothing is left to cancel from here
  }
}

/**
 * JSON.parse, except that integers of more than 15 digits are kept as strings: Trino encodes
 * bigint values as JSON numbers, which JSON.parse would round beyond 2^53.
 */
export function parseTrinoJson(text: string): unknown {
  let out = ''
  let last = 0
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++
      continue
    }
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) {
      let j = i + 1
      while (j < text.length && /[0-9.eE+-]/.test(text[j] as string)) j++
      const token = text.slice(i, j)
      if (/^-?\d{16,}$/.test(token)) {
        out += `${text.slice(last, i)}"${token}"`
        last = j
      }
      i = j - 1
    }
  }
  return JSON.parse(out + text.slice(last))
}
