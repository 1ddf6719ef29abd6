import type { FastifyBaseLogger } from 'fastify'
import pino, { type DestinationStream, type Logger } from 'pino'

/** Field names whose values are secrets wherever they appear in a logged object. */
const SECRET_FIELDS = new Set(
  [
    'authorization',
    'password',
    'currentPassword',
    'token',
    'accessToken',
    'refreshToken',
    'key',
    'apiKey',
    'secret',
    'credentials',
    'privateKey',
    'privateKeyPass',
    'sshPrivateKey',
    'credentials_json',
    'cookie',
  ].map((f) => f.toLowerCase()),
)
const CENSOR = '[REDACTED]'
const MAX_DEPTH = 8

const SECRET_QUERY = /([?&](?:token|key|apiKey|password|secret)=)[^&]*/gi

/** A URL with the values of secret-looking query parameters replaced. */
export const redactUrl = (url: string): string => url.replace(SECRET_QUERY, '$1[REDACTED]')

/**
 * A copy of `value` with the value of every secret-named field replaced, at any depth (up to
 * 8 levels; deeper objects are dropped rather than risked). Errors are left to pino's `err`
 * serializer.
 */
export function redactSecrets<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== 'object' || value instanceof Error) return value
  if (depth >= MAX_DEPTH) return '[Object]' as T
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1)) as T
  const copy: Record<string, unknown> = {}
  for (const [field, item] of Object.entries(value)) {
    copy[field] = SECRET_FIELDS.has(field.toLowerCase()) ? CENSOR : redactSecrets(item, depth + 1)
  }
  return copy as T
}

/** What `pino.destination` makes: a SonicBoom, with `flushSync`. */
export type LogDestination = ReturnType<typeof pino.destination>

/**
 * The process's log output (docs/operations.md#logging): stdout by default, written asynchronously.
 * A log call appends its line to a buffer and returns; the buffer goes out in one `write` on
 * libuv's thread pool, and lines logged while a write is in flight are written together after
 * it, so that under load many access lines share a syscall and the event loop never waits on the
 * terminal, pipe or file behind stdout. `minLength: 0`: nothing waits for a buffer to fill, so
 * on a quiet server a line is out within a write's time. `flushLog` writes out what is left
 * before the process exits.
 */
export function logDestination(dest: number | string = 1): LogDestination {
  return pino.destination({ dest, sync: false, minLength: 0 })
}

/** SonicBoom's flag for a write on the thread pool; it has no public accessor. */
const inFlight = (stream: LogDestination): boolean => (stream as unknown as { _writing?: boolean })._writing === true

/**
 * Writes out every line `log` has buffered, before the process exits (on shutdown and on a fatal
 * error): waits (up to `timeoutMs`) for an asynchronous write in flight, whose lines come first,
 * then writes the rest synchronously. A no-op for a destination without `flushSync` (a test's
 * capturing stream writes at once).
 */
export async function flushLog(log: Logger | FastifyBaseLogger, timeoutMs = 1_000): Promise<void> {
  const stream = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as LogDestination | undefined
  if (typeof stream?.flushSync !== 'function') return
  const deadline = Date.now() + timeoutMs
  while (inFlight(stream) && Date.now() < deadline) {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        stream.off('write', done)
        stream.off('error', done)
        resolve()
      }
      const timer = setTimeout(done, Math.max(1, deadline - Date.now()))
      stream.once('write', done)
      stream.once('error', done)
    })
  }
  try {
    stream.flushSync()
  } catch {
    // a destination that is gone (EPIPE: nobody reads stdout any more) has nothing to flush to
  }
}

/**
 * The server's logger. Redaction runs when a line is written, not when a child logger is made:
 * pino's path-based `redact` with wildcards costs ~9 µs per request-scoped child (Fastify makes
 * one per request) even at a level that writes nothing; this costs nothing until a line is
 * actually logged, and covers any depth. Child-logger bindings are not redacted: the only
 * ones made are Fastify's `{ reqId }`; never bind a secret. Lines go to `destination`, by
 * default stdout written asynchronously (`logDestination`).
 */
export function createLogger(level: string, destination: DestinationStream = logDestination()): Logger {
  return pino(
    {
      level,
      formatters: { log: redactSecrets },
      serializers: { err: pino.stdSerializers.err },
    },
    destination,
  )
}

type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
type LogArgs = Parameters<Logger['info']>

/**
 * The logger Fastify gives each request (`request.log`), as its `childLoggerFactory`: bound to
 * the request's id like a pino child, but the child is made only when the request first logs a
 * line its level lets through. Fastify makes one per request, and a pino child costs more than
 * anything else Fastify does per request here (~7 µs of a ~60 µs cache hit, bench/README.md),
 * while most requests write no line of their own (the access line is written by the app's
 * logger with `reqId` as a field, app.ts).
 */
export class RequestLogger {
  #child: Logger | undefined
  readonly #parent: Logger
  readonly #bindings: pino.Bindings

  constructor(parent: Logger, bindings: pino.Bindings) {
    this.#parent = parent
    this.#bindings = bindings
  }

  /** Fastify's `childLoggerFactory`; a route's own level or serializers get a pino child at once. */
  static factory(
    this: unknown,
    parent: Logger,
    bindings: pino.Bindings,
    options: pino.ChildLoggerOptions,
  ): Logger | RequestLogger {
    return options.level !== undefined || options.serializers !== undefined
      ? parent.child(bindings, options)
      : new RequestLogger(parent, bindings)
  }

  get level(): string {
    return (this.#child ?? this.#parent).level
  }

  set level(level: string) {
    this.#logger().level = level
  }

  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.#parent).isLevelEnabled(level)
  }

  child(bindings: pino.Bindings, options?: pino.ChildLoggerOptions): Logger {
    return this.#logger().child(bindings, options)
  }

  fatal(...args: LogArgs): void {
    this.#write('fatal', args)
  }
  error(...args: LogArgs): void {
    this.#write('error', args)
  }
  warn(...args: LogArgs): void {
    this.#write('warn', args)
  }
  info(...args: LogArgs): void {
    this.#write('info', args)
  }
  debug(...args: LogArgs): void {
    this.#write('debug', args)
  }
  trace(...args: LogArgs): void {
    this.#write('trace', args)
  }
  silent(): void {}

  #write(level: LogLevel, args: LogArgs): void {
    if (this.isLevelEnabled(level)) this.#logger()[level](...args)
  }

  #logger(): Logger {
    this.#child ??= this.#parent.child(this.#bindings)
    return this.#child
  }
}
