import { isIP } from 'node:net'
import { join, resolve } from 'node:path'

/** The six rate-limit groups of docs/operations.md#rate-limits. */
export type RateLimitGroup = 'global' | 'auth' | 'refresh' | 'otp' | 'email' | 'onboardingDemoDatabase'

export interface RateLimitRule {
  /** Requests allowed per window per client; 0 turns the group off. */
  readonly max: number
  readonly windowMs: number
}

/** An IPv4 or IPv6 range, `address/prefix`. */
export interface Subnet {
  readonly address: string
  readonly prefix: number
  readonly family: 'ipv4' | 'ipv6'
}

export interface Config {
  readonly port: number
  readonly host: string
  /** '' or a path prefix such as '/analytics' (no trailing slash). */
  readonly basePath: string
  readonly dataDir: string
  readonly databaseUrl: string | undefined
  readonly redisUrl: string | undefined
  readonly encryptionKey: string | undefined
  readonly selfHosted: boolean
  /** Seconds an admin access token (sign-in, refresh) stays valid (ADMIN_ACCESS_TTL_S). */
  readonly adminAccessTtlSeconds: number
  /** Seconds a studio preview or authoring token stays valid (STUDIO_PREVIEW_TTL_S); the studio mints another when it ends. */
  readonly studioPreviewTtlSeconds: number
  readonly demo: boolean
  readonly logLevel: string
  readonly rateLimits: Readonly<Record<RateLimitGroup, RateLimitRule>>
  /**
   * Peers whose `X-Client-IP` / `X-Forwarded-For` are believed (TRUST_PROXY); from any other
   * peer those headers are ignored and the socket address is the client. Empty: trust none.
   */
  readonly trustProxy: readonly Subnet[]
  readonly graphqlEngineEndpoint: string | undefined
  readonly identityServerUrl: string | undefined
  /**
   * Email delivery of scheduled reports (docs/operations.md#email-reports-smtp): `smtp://user:pass@host:port` or
   * `smtps://…`, and the From address. Both or neither; without them report routes answer 400.
   */
  readonly email: { readonly smtpUrl: string; readonly from: string } | undefined
  /** How often each instance looks for due email reports. */
  readonly reportPollMs: number
  /** The first retry of a failed report send waits this long; each next one twice as long. */
  readonly reportRetryBaseMs: number
  /** Rollups (docs/rollups.md#configuration): how often each instance looks for due builds (0: never builds). */
  readonly rollupPollMs: number
  /** Ready rollups answer the metric queries they fit (ROLLUP_SERVE); off: every query goes to the warehouse. */
  readonly rollupServe: boolean
  /** Rollups the store holds at most; more are listed as failed and never built. */
  readonly rollupMaxCount: number
  /** Rows one rollup build may hold; a GROUP BY that returns more fails the build. */
  readonly rollupMaxRows: number
  /** A build's warehouse query is cancelled after this long. */
  readonly rollupBuildTimeoutMs: number
  /** Rollup files on S3, shared by the instances (ROLLUP_S3_*); undefined: under DATA_DIR/rollups. */
  readonly rollupS3:
    | {
        readonly bucket: string
        readonly prefix: string
        readonly region: string
        readonly endpoint: string | undefined
        readonly accessKeyId: string | undefined
        readonly secretAccessKey: string | undefined
        /** Read copies of rollup files this instance keeps on disk at most (ROLLUP_S3_READ_CACHE_MAX_BYTES). */
        readonly readCacheMaxBytes: number
      }
    | undefined
  readonly adminEmail: string | undefined
  readonly adminPassword: string | undefined
  /** Largest accepted request body in bytes. */
  readonly bodyLimit: number
  /** SIGTERM/SIGINT: forced exit after this many ms of draining. */
  readonly shutdownTimeoutMs: number
  /** Warehouse queries are cancelled (on the database side too) after this long. */
  readonly queryTimeoutMs: number
  /** Rows one warehouse query may return. */
  readonly queryRowLimit: number
  /** Connections per warehouse pool (one pool per datasource and tenant database). */
  readonly poolMax: number
  /** Warehouse queries one tenant (clientId) may have in flight per datasource; more wait in line. */
  readonly tenantQueryConcurrency: number
  /** Metric results are cached this long (0: off). */
  readonly resultCacheTtlMs: number
  /** Memory each DuckDB-backed datasource (csv, awss3) may use, its loaded files included. */
  readonly duckdbMemoryLimitMb: number
  /** The memory ceiling of the engine process DuckDB runs in (all its datasources together). */
  readonly engineMemoryLimitMb: number
  /** The one directory whose files `csv` (and `awss3` file:///) datasources may read. */
  readonly filesRoot: string
  /** Largest file the upload route stores, in bytes. */
  readonly fileUploadLimit: number
  /** Where awss3 datasources cache their S3 objects (`DATA_DIR/cache`). */
  readonly cacheDir: string
  /** Total bytes of data files one awss3 datasource may cache. */
  readonly s3CacheMaxBytes: number
  /** OpenAI-compatible chat-completion endpoints of the AI pilot, by llmName (docs/operations.md#ai-pilot-llm-providers). */
  readonly llmProviders: Readonly<Record<string, LlmProvider>>
  /** One provider call (one attempt) is abandoned after this long: 502 AI_PROVIDER_ERROR. */
  readonly llmTimeoutMs: number
  /** The most of a provider's answer read (bytes of its body): past it, 502 AI_PROVIDER_ERROR. */
  readonly llmMaxAnswerBytes: number
}

/** One entry of LLM_PROVIDERS. `apiKey` is a secret: never logged, never answered. */
export interface LlmProvider {
  /** The API root the SDK posts `/chat/completions` under, e.g. https://api.openai.com/v1. */
  readonly baseUrl: string
  readonly apiKey: string
  readonly model: string
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}

type Env = Readonly<Record<string, string | undefined>>

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim()
  return value === undefined || value === '' ? undefined : value
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name)
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`)
  const value = Number(raw)
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`)
  return value
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name)?.toLowerCase()
  if (raw === undefined) return fallback
  if (['true', '1', 'yes'].includes(raw)) return true
  if (['false', '0', 'no'].includes(raw)) return false
  throw new ConfigError(`${name} must be true or false, got "${raw}"`)
}

function url(env: Env, name: string): string | undefined {
  const raw = text(env, name)
  if (raw === undefined) return undefined
  try {
    new URL(raw)
  } catch {
    throw new ConfigError(`${name} must be a URL, got an unparseable value`)
  }
  return raw.replace(/\/+$/, '')
}

/** SMTP_URL and EMAIL_FROM: both or neither (a URL of smtp: or smtps:, an address). */
function emailConfig(env: Env): Config['email'] {
  const smtpUrl = text(env, 'SMTP_URL')
  const from = text(env, 'EMAIL_FROM')
  if (smtpUrl === undefined && from === undefined) return undefined
  if (smtpUrl === undefined || from === undefined) throw new ConfigError('SMTP_URL and EMAIL_FROM must be set together')
  let parsed: URL
  try {
    parsed = new URL(smtpUrl)
  } catch {
    throw new ConfigError('SMTP_URL must be a URL such as smtp://user:pass@host:587 or smtps://host:465')
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new ConfigError('SMTP_URL must start with smtp:// or smtps://')
  }
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(from.replace(/^.*<([^>]*)>\s*$/, '$1'))) {
    throw new ConfigError('EMAIL_FROM must be an email address, optionally as "Name <address>"')
  }
  return { smtpUrl, from }
}

/**
 * ROLLUP_S3_BUCKET turns on S3 storage of rollups; the prefix, region, endpoint (an S3-compatible
 * service, http or https) and static keys (both or neither: without them the AWS SDK's default
 * chain) go with it.
 */
function rollupS3Config(env: Env): Config['rollupS3'] {
  const bucket = text(env, 'ROLLUP_S3_BUCKET')
  const others = ['PREFIX', 'REGION', 'ENDPOINT', 'ACCESS_KEY_ID', 'SECRET_ACCESS_KEY', 'READ_CACHE_MAX_BYTES'].map(
    (n) => `ROLLUP_S3_${n}`,
  )
  if (bucket === undefined) {
    const stray = others.find((n) => text(env, n) !== undefined)
    if (stray !== undefined) throw new ConfigError(`${stray} needs ROLLUP_S3_BUCKET`)
    return undefined
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError(`ROLLUP_S3_BUCKET must be an S3 bucket name, got "${bucket}"`)
  }
  const endpoint = text(env, 'ROLLUP_S3_ENDPOINT')
  if (endpoint !== undefined && !/^https?:\/\/[^/@\s]+(\/.*)?$/.test(endpoint)) {
    throw new ConfigError('ROLLUP_S3_ENDPOINT must be an http:// or https:// URL without a user name or password')
  }
  const accessKeyId = text(env, 'ROLLUP_S3_ACCESS_KEY_ID')
  const secretAccessKey = text(env, 'ROLLUP_S3_SECRET_ACCESS_KEY')
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError('ROLLUP_S3_ACCESS_KEY_ID and ROLLUP_S3_SECRET_ACCESS_KEY must be set together')
  }
  const prefix = (text(env, 'ROLLUP_S3_PREFIX') ?? '').replace(/^\/+|\/+$/g, '')
  if (prefix.split('/').some((p) => p === '.' || p === '..')) {
    throw new ConfigError('ROLLUP_S3_PREFIX must not hold "." or ".." segments')
  }
  return {
    bucket,
    prefix,
    region: text(env, 'ROLLUP_S3_REGION') ?? 'us-east-1',
    endpoint,
    accessKeyId,
    secretAccessKey,
    readCacheMaxBytes: integer(env, 'ROLLUP_S3_READ_CACHE_MAX_BYTES', 1024 ** 3, 1024 * 1024, 1024 ** 4),
  }
}

function basePath(env: Env): string {
  const raw = text(env, 'BASE_PATH')
  if (raw === undefined || raw === '/') return ''
  if (!/^\/?[A-Za-z0-9._~\-/]+$/.test(raw)) throw new ConfigError(`BASE_PATH must be a URL path, got "${raw}"`)
  return `/${raw.replace(/^\/+|\/+$/g, '')}`
}

const MINUTE = 60_000

const subnet = (address: string, prefix?: number): Subnet => {
  const family = isIP(address) === 4 ? 'ipv4' : 'ipv6'
  return { address, prefix: prefix ?? (family === 'ipv4' ? 32 : 128), family }
}

/** The words TRUST_PROXY accepts besides addresses and CIDR ranges. */
const PROXY_KEYWORDS: Readonly<Record<string, readonly Subnet[]>> = {
  loopback: [subnet('127.0.0.0', 8), subnet('::1')],
  // RFC 1918 and IPv6 unique-local addresses
  private: [subnet('10.0.0.0', 8), subnet('172.16.0.0', 12), subnet('192.168.0.0', 16), subnet('fc00::', 7)],
}

function trustProxy(env: Env): Subnet[] {
  const raw = text(env, 'TRUST_PROXY') ?? 'loopback,private'
  const entries = raw
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '')
  if (entries.includes('none')) {
    if (entries.length > 1) throw new ConfigError('TRUST_PROXY: "none" cannot be combined with other entries')
    return []
  }
  return entries.flatMap((entry) => {
    const keyword = PROXY_KEYWORDS[entry]
    if (keyword) return keyword
    const [address = '', prefix, ...rest] = entry.split('/')
    const family = isIP(address)
    const bits = family === 4 ? 32 : 128
    if (
      family === 0 ||
      rest.length > 0 ||
      (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) ||
      Number(prefix) > bits
    ) {
      throw new ConfigError(
        `TRUST_PROXY must list IP addresses, CIDR ranges (such as 10.0.0.0/8) and the words loopback, private or none, separated by commas; "${entry.slice(0, 60)}" is none of these`,
      )
    }
    return [subnet(address, prefix === undefined ? undefined : Number(prefix))]
  })
}

/**
 * LLM_PROVIDERS: a JSON object `{ "<llmName>": { baseUrl, apiKey, model } }`. Errors name the
 * provider and the field, never a value (an apiKey must not reach a log through a message).
 */
function llmProviders(env: Env): Record<string, LlmProvider> {
  const raw = text(env, 'LLM_PROVIDERS')
  if (raw === undefined) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    throw new ConfigError('LLM_PROVIDERS must be a JSON object { "<llmName>": { "baseUrl", "apiKey", "model" } }')
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError('LLM_PROVIDERS must be a JSON object { "<llmName>": { "baseUrl", "apiKey", "model" } }')
  }
  const out: Record<string, LlmProvider> = {}
  for (const [name, entry] of Object.entries(parsed)) {
    const where = `LLM_PROVIDERS["${name.slice(0, 60)}"]`
    if (name.trim() === '' || name.length > 200)
      throw new ConfigError('LLM_PROVIDERS: a name is empty or longer than 200')
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      throw new ConfigError(`${where} must be an object { "baseUrl", "apiKey", "model" }`)
    }
    const fields = entry as Record<string, unknown>
    const extra = Object.keys(fields).filter((k) => !['baseUrl', 'apiKey', 'model'].includes(k))
    if (extra.length > 0) throw new ConfigError(`${where} has unknown fields: ${extra.join(', ').slice(0, 100)}`)
    const field = (key: 'baseUrl' | 'apiKey' | 'model'): string => {
      const value = fields[key]
      if (typeof value !== 'string' || value.trim() === '')
        throw new ConfigError(`${where}.${key} must be a non-empty string`)
      return value.trim()
    }
    const baseUrl = field('baseUrl')
    let protocol: string
    try {
      protocol = new URL(baseUrl).protocol
    } catch {
      throw new ConfigError(`${where}.baseUrl must be an http(s) URL`)
    }
    if (protocol !== 'http:' && protocol !== 'https:') throw new ConfigError(`${where}.baseUrl must be an http(s) URL`)
    // a local server that takes no key (Ollama, vLLM) accepts any: the SDK sends one either way
    out[name] = { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey: field('apiKey'), model: field('model') }
  }
  return out
}

/** Whether a bind address only accepts connections from this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
}

/** Reads the environment once into a typed, validated Config. Pure: no I/O. */
export function parseConfig(env: Env, cwd: string = process.cwd()): Config {
  const databaseUrl = text(env, 'DATABASE_URL')
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL')
  }
  const logLevel = text(env, 'LOG_LEVEL') ?? 'info'
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`)
  const adminEmail = text(env, 'ADMIN_EMAIL')
  const adminPassword = text(env, 'ADMIN_PASSWORD')
  if ((adminEmail === undefined) !== (adminPassword === undefined)) {
    throw new ConfigError('ADMIN_EMAIL and ADMIN_PASSWORD must be set together')
  }
  const email = emailConfig(env)
  const limit = (name: string, fallback: number, windowMs: number): RateLimitRule => ({
    max: integer(env, name, fallback, 0, 1_000_000_000),
    windowMs,
  })
  const poolMax = integer(env, 'POOL_MAX', 10, 1, 1000)
  const duckdbMemoryLimitMb = integer(env, 'DUCKDB_MEMORY_LIMIT_MB', 1024, 16, 1_048_576)
  const host = text(env, 'HOST') ?? '127.0.0.1'
  const dataDir = resolve(cwd, text(env, 'DATA_DIR') ?? '.data')
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host,
    basePath: basePath(env),
    dataDir,
    databaseUrl,
    redisUrl: text(env, 'REDIS_URL'),
    encryptionKey: text(env, 'ENCRYPTION_KEY'),
    selfHosted: boolean(env, 'SELF_HOSTED', true),
    adminAccessTtlSeconds: integer(env, 'ADMIN_ACCESS_TTL_S', 3600, 5, 86_400),
    studioPreviewTtlSeconds: integer(env, 'STUDIO_PREVIEW_TTL_S', 900, 5, 86_400),
    // The demo mints guest tokens for anyone who asks: on by default only for a local try-out.
    demo: boolean(env, 'DEMO', databaseUrl === undefined && isLoopback(host)),
    logLevel,
    rateLimits: {
      global: limit('RATE_LIMIT', 500, 2 * MINUTE),
      auth: limit('AUTH_ROUTE_RATE_LIMIT', 30, MINUTE),
      refresh: limit('REFRESH_ROUTE_RATE_LIMIT', 30, MINUTE),
      otp: limit('OTP_RATE_LIMIT', 50, MINUTE),
      email: limit('EMAIL_RATE_LIMIT', 50, MINUTE),
      onboardingDemoDatabase: limit('ONBOARDING_DEMO_DATABASE_RATE_LIMIT', 50, MINUTE),
    },
    trustProxy: trustProxy(env),
    graphqlEngineEndpoint: url(env, 'GRAPHQL_ENGINE_ENDPOINT'),
    identityServerUrl: url(env, 'IDENTITY_SERVER_URL'),
    email,
    reportPollMs: integer(env, 'REPORT_POLL_INTERVAL_MS', 30_000, 100, 3_600_000),
    reportRetryBaseMs: integer(env, 'REPORT_RETRY_BASE_MS', 60_000, 100, 3_600_000),
    rollupPollMs: integer(env, 'ROLLUP_POLL_INTERVAL_MS', 30_000, 0, 3_600_000),
    rollupServe: boolean(env, 'ROLLUP_SERVE', true),
    rollupMaxCount: integer(env, 'ROLLUP_MAX_COUNT', 100, 0, 100_000),
    rollupMaxRows: integer(env, 'ROLLUP_MAX_ROWS', 1_000_000, 1, 100_000_000),
    rollupBuildTimeoutMs: integer(env, 'ROLLUP_BUILD_TIMEOUT_MS', 600_000, 1000, 86_400_000),
    rollupS3: rollupS3Config(env),
    adminEmail,
    adminPassword,
    bodyLimit: integer(env, 'BODY_LIMIT', 1024 * 1024, 1024, 100 * 1024 * 1024),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 30_000, 0, 600_000),
    queryTimeoutMs: integer(env, 'QUERY_TIMEOUT_MS', 30_000, 100, 3_600_000),
    queryRowLimit: integer(env, 'QUERY_ROW_LIMIT', 10_000, 1, 10_000_000),
    poolMax,
    tenantQueryConcurrency: integer(env, 'TENANT_QUERY_CONCURRENCY', Math.max(1, Math.floor(poolMax / 2)), 1, 1000),
    resultCacheTtlMs: integer(env, 'RESULT_CACHE_TTL_MS', 60_000, 0, 86_400_000),
    duckdbMemoryLimitMb,
    engineMemoryLimitMb: integer(
      env,
      'ENGINE_MEMORY_LIMIT_MB',
      Math.max(2048, 2 * duckdbMemoryLimitMb),
      256,
      1_048_576,
    ),
    filesRoot: resolve(cwd, text(env, 'FILES_ROOT') ?? join(dataDir, 'files')),
    fileUploadLimit: integer(env, 'FILE_UPLOAD_LIMIT', 100 * 1024 * 1024, 1024, 1024 ** 4),
    cacheDir: join(dataDir, 'cache'),
    s3CacheMaxBytes: integer(env, 'S3_CACHE_MAX_BYTES', 512 * 1024 * 1024, 1024, 1024 ** 4),
    llmProviders: llmProviders(env),
    llmTimeoutMs: integer(env, 'LLM_TIMEOUT_MS', 30_000, 100, 600_000),
    llmMaxAnswerBytes: integer(env, 'LLM_MAX_ANSWER_BYTES', 2 * 1024 * 1024, 1024, 64 * 1024 * 1024),
  }
}
