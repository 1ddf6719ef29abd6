/**
 * A thin front that speaks ClickHouse's HTTP interface to chdb (ClickHouse's engine as a library,
 * npm `chdb`), so that the real ClickHouse connector (@clickhouse/client over HTTP) runs against a
 * current ClickHouse engine. Runs as a child process (`node --import tsx front.ts <chdb dir>
 * <config JSON>`, see process.ts): chdb is native code in the process that loads it, and a crash
 * must not take the test runner down. Prints `{"port":N,"version":"…"}` once listening on
 * 127.0.0.1; stops when its standard input closes (the test process ended) or on SIGTERM.
 *
 * What it covers — everything the engine decides: ClickHouse's SQL parser (one statement per
 * request, as the HTTP server allows: checked with the engine's own `formatQuery`), functions,
 * types, formats (FORMAT in the query text or `default_format`), time zones (`session_timezone`,
 * `timezone()`), settings (every URL parameter the HTTP handler does not read itself is applied
 * as a setting for that request only: `readonly`, `max_execution_time`, …), query parameters
 * (`param_<name>` values handed to the engine as sent, bound by it to `{name:Type}`), the
 * `database` parameter, MergeTree tables, `system.*` tables, and the engine's exceptions,
 * answered as the HTTP server answers them (status code by exception, `X-ClickHouse-Exception-Code`,
 * `Code: N. DB::Exception: … (version V)` body).
 *
 * What it does not cover — ClickHouse's network server: TLS, its users and access control (the
 * front checks a user/password table of its own and answers AUTHENTICATION_FAILED the way the
 * server does), sessions (`session_id`), compression (a request asking for it gets an
 * uncompressed answer), multipart parameters, progress headers, streaming (the whole result is
 * computed, then sent), concurrent queries (requests run one at a time), cancellation (`KILL
 * QUERY` runs but finds nothing: a chdb query stops only at its `max_execution_time`), and
 * distributed or replicated tables.
 */
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import { createRequire } from 'node:module'
import type net from 'node:net'
import { dirname, join, resolve } from 'node:path'
import {
  contentType,
  escaped,
  exception,
  exceptionAnswer,
  identifier,
  type ParsedRequest,
  parseRequest,
  SETTING_NAME,
  stringLiteral,
} from './http-interface.js'

/** The native binding's calls this front uses (chdb's own JS wrapper would re-escape parameter values). */
interface ChdbNative {
  QueryAsyncConnection(
    connection: unknown,
    sql: string,
    format: string,
    params?: Record<string, string>,
  ): Promise<{ bytes: Uint8Array; rowsRead: number; bytesRead: number }>
}
interface ChdbSession {
  readonly connection: unknown
  close(): void
}

export interface FrontConfig {
  /** user → password: the only users the front lets in. */
  readonly users: Readonly<Record<string, string>>
}

const MAX_BODY_BYTES = 64 * 1024 * 1024

const [chdbDir, configJson] = process.argv.slice(2)
if (!chdbDir || !configJson) throw new Error('usage: front.ts <chdb install dir> <config JSON>')
const config = JSON.parse(configJson) as FrontConfig
const require = createRequire(join(resolve(chdbDir), 'node_modules', 'load.cjs'))
const chdbMain = require.resolve('chdb')
const { Session } = require(chdbMain) as { Session: new () => ChdbSession }
// the binding chdb's own wrapper uses (dist/loader.js caches it: one engine per process)
const native = (require(join(dirname(chdbMain), 'dist', 'loader.js')) as { loadNative(): ChdbNative }).loadNative()
const session = new Session()

const run = async (sql: string, format = 'RawBLOB', params: Record<string, string> = {}) =>
  native.QueryAsyncConnection(session.connection, sql, format, params)
const text = async (sql: string, params?: Record<string, string>) =>
  Buffer.from((await run(sql, 'RawBLOB', params)).bytes).toString('utf8')

const version = (await text('SELECT version()')).trim()
const serverZone = (await text('SELECT timezone()')).trim()
/** The engine's codes of the exceptions the front raises itself (errorCodeToName: its own table). */
const OWN = ['AUTHENTICATION_FAILED', 'UNKNOWN_SETTING', 'NOT_IMPLEMENTED', 'QUERY_IS_TOO_LARGE'] as const
const codes = new Map(
  (
    await text(
      `SELECT number, errorCodeToName(number) AS name FROM numbers(2000) WHERE name IN (${OWN.map(stringLiteral).join(', ')}) FORMAT TSV`,
    )
  )
    .trim()
    .split('\n')
    .map((line) => line.split('\t').reverse() as [string, string]),
)
const own = (name: (typeof OWN)[number], message: string) => exception(Number(codes.get(name)), name, message)

interface Answer {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: Uint8Array | string
}

function failure(message: string): Answer {
  const { status, code, body } = exceptionAnswer(message, version)
  return {
    status,
    headers: { 'Content-Type': 'text/plain; charset=UTF-8', 'X-ClickHouse-Exception-Code': String(code) },
    body,
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err))

/**
 * The request's statement as the engine's parser reads it (one statement, else its
 * "Multi-statements are not allowed"); the FORMAT it names, if any.
 */
async function parse(query: string): Promise<{ format: string | undefined }> {
  try {
    const formatted = await text('SELECT formatQuery({q:String})', { q: escaped(query) })
    return { format: /\bFORMAT\s+(\w+)\s*$/.exec(formatted)?.[1] }
  } catch (err) {
    // the engine names the scope of the check, which is ours, not the request's
    throw new Error(messageOf(err).replace(/\s*: In scope SELECT formatQuery\(.*\)\.\s*(\([A-Z_]+\))\s*$/s, ' $1'))
  }
}

/** The request's settings and database for this request only, and how to undo them. */
function scope(r: ParsedRequest): { enter: string[]; leave: string[] } {
  // readonly last: with readonly = 1 no later setting could be applied
  const settings = [...r.settings.filter(([n]) => n !== 'readonly'), ...r.settings.filter(([n]) => n === 'readonly')]
  for (const [name] of settings) {
    if (!SETTING_NAME.test(name)) throw new Error(own('UNKNOWN_SETTING', `Unknown setting '${name}'`))
  }
  return {
    enter: [
      ...(r.database !== undefined ? [`USE ${identifier(r.database)}`] : []),
      ...settings.map(([name, value]) => `SET ${name} = ${stringLiteral(value)}`),
    ],
    leave: [...settings.map(([name]) => `SET ${name} = DEFAULT`), 'USE default'],
  }
}

async function answer(r: ParsedRequest): Promise<Answer> {
  if (config.users[r.user] !== r.password) {
    return failure(
      own(
        'AUTHENTICATION_FAILED',
        `${r.user}: Authentication failed: password is incorrect, or there is no user with such name`,
      ),
    )
  }
  let leave: string[] = []
  try {
    const { format } = await parse(r.query)
    const scoped = scope(r)
    leave = scoped.leave
    if (scoped.enter.length > 0) await run(scoped.enter.join(';\n'))
    const result = await run(r.query, r.defaultFormat, r.params)
    const effective = format ?? r.defaultFormat
    return {
      status: 200,
      headers: {
        'Content-Type': contentType(effective),
        'X-ClickHouse-Format': effective,
        'X-ClickHouse-Timezone': serverZone,
        'X-ClickHouse-Summary': JSON.stringify({
          read_rows: String(result.rowsRead),
          read_bytes: String(result.bytesRead),
        }),
      },
      body: result.bytes,
    }
  } catch (err) {
    return failure(messageOf(err))
  } finally {
    if (leave.length > 0) await restore(leave)
  }
}

/** Back to the session's defaults; a front that cannot get there stops rather than leak settings into the next request. */
async function restore(leave: readonly string[]): Promise<void> {
  try {
    await run(leave.join(';\n'))
    if ((await text("SELECT toString(getSetting('readonly'))")).trim() !== '0') throw new Error('readonly stayed set')
  } catch (err) {
    process.stderr.write(`chdb front: could not restore the session (${messageOf(err)}); stopping\n`)
    process.exit(70)
  }
}

// one request at a time: the settings of one must never be seen by another
let queue: Promise<unknown> = Promise.resolve()
const serially = <T>(work: () => Promise<T>): Promise<T> => {
  const next = queue.then(work, work)
  queue = next.catch(() => undefined)
  return next
}

function readBody(req: http.IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        resolve(undefined)
        req.destroy()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

const server = http.createServer((req, res) => {
  void (async () => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const send = (a: Answer) => {
      res.writeHead(a.status, {
        ...a.headers,
        'X-ClickHouse-Query-Id': url.searchParams.get('query_id') ?? randomUUID(),
      })
      res.end(a.body)
    }
    if (url.pathname === '/ping' || (url.pathname === '/' && req.method === 'GET' && !url.searchParams.has('query'))) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8' })
      res.end('Ok.\n')
      return
    }
    if (url.pathname !== '/') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=UTF-8' })
      res.end(`There is no handle ${url.pathname}\n`)
      return
    }
    const unsupported =
      req.headers['content-encoding'] ??
      (/multipart/i.test(req.headers['content-type'] ?? '') ? 'multipart' : undefined)
    if (unsupported !== undefined) {
      send(failure(own('NOT_IMPLEMENTED', `the chdb front does not read ${String(unsupported)} requests`)))
      return
    }
    const body = await readBody(req)
    if (body === undefined) {
      send(failure(own('QUERY_IS_TOO_LARGE', `the chdb front reads at most ${MAX_BODY_BYTES} bytes`)))
      return
    }
    const parsed = parseRequest(req.method ?? 'POST', url, req.headers, body)
    send(await serially(() => answer(parsed)))
  })().catch((err: unknown) => {
    process.stderr.write(`chdb front: ${messageOf(err)}\n`)
    if (!res.headersSent) res.writeHead(500)
    res.end()
  })
})

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as net.AddressInfo
  process.stdout.write(`${JSON.stringify({ port, version })}\n`)
})

const stop = () => {
  server.close()
  server.closeAllConnections()
  session.close()
  process.exit(0)
}
process.stdin.on('end', stop)
process.stdin.resume()
process.on('SIGTERM', stop)
