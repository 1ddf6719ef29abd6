import { describe, expect, it } from 'vitest'
import { ConfigError, parseConfig } from './config.js'

describe('parseConfig', () => {
  it('has the documented defaults with no environment', () => {
    const config = parseConfig({}, '/srv/strata')
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      basePath: '',
      dataDir: '/srv/strata/.data',
      databaseUrl: undefined,
      redisUrl: undefined,
      selfHosted: true,
      adminAccessTtlSeconds: 3600,
      studioPreviewTtlSeconds: 900,
      demo: true,
      logLevel: 'info',
      bodyLimit: 1048576,
      shutdownTimeoutMs: 30000,
      filesRoot: '/srv/strata/.data/files',
      fileUploadLimit: 100 * 1024 * 1024,
      cacheDir: '/srv/strata/.data/cache',
      s3CacheMaxBytes: 512 * 1024 * 1024,
      email: undefined,
      llmProviders: {},
      llmTimeoutMs: 30_000,
    })
    expect(config.rateLimits).toEqual({
      global: { max: 500, windowMs: 120_000 },
      auth: { max: 30, windowMs: 60_000 },
      refresh: { max: 30, windowMs: 60_000 },
      otp: { max: 50, windowMs: 60_000 },
      email: { max: 50, windowMs: 60_000 },
      onboardingDemoDatabase: { max: 50, windowMs: 60_000 },
    })
  })

  it('ENGINE_MEMORY_LIMIT_MB: the larger of 2048 and twice DUCKDB_MEMORY_LIMIT_MB by default; 256 at least', () => {
    expect(parseConfig({}, '/srv').engineMemoryLimitMb).toBe(2048)
    expect(parseConfig({ DUCKDB_MEMORY_LIMIT_MB: '4096' }, '/srv').engineMemoryLimitMb).toBe(8192)
    expect(parseConfig({ ENGINE_MEMORY_LIMIT_MB: '512' }, '/srv').engineMemoryLimitMb).toBe(512)
    expect(() => parseConfig({ ENGINE_MEMORY_LIMIT_MB: '100' }, '/srv')).toThrow(ConfigError)
  })

  it('STUDIO_PREVIEW_TTL_S: 15 minutes by default, 5 seconds to a day', () => {
    expect(parseConfig({ STUDIO_PREVIEW_TTL_S: '6' }, '/srv').studioPreviewTtlSeconds).toBe(6)
    expect(() => parseConfig({ STUDIO_PREVIEW_TTL_S: '4' }, '/srv')).toThrow(ConfigError)
    expect(() => parseConfig({ STUDIO_PREVIEW_TTL_S: '86401' }, '/srv')).toThrow(ConfigError)
  })

  it('reads every rate-limit variable', () => {
    const config = parseConfig({
      RATE_LIMIT: '1',
      AUTH_ROUTE_RATE_LIMIT: '2',
      REFRESH_ROUTE_RATE_LIMIT: '3',
      OTP_RATE_LIMIT: '4',
      EMAIL_RATE_LIMIT: '5',
      ONBOARDING_DEMO_DATABASE_RATE_LIMIT: '6',
    })
    expect(Object.values(config.rateLimits).map((r) => r.max)).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('trusts loopback and private ranges as proxies by default; TRUST_PROXY lists others', () => {
    const cidrs = (env: Record<string, string>) => parseConfig(env).trustProxy.map((s) => `${s.address}/${s.prefix}`)
    expect(cidrs({})).toEqual(['127.0.0.0/8', '::1/128', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'])
    expect(cidrs({ TRUST_PROXY: ' 203.0.113.7, 198.51.100.0/24 ,2001:DB8::/32, Loopback' })).toEqual([
      '203.0.113.7/32',
      '198.51.100.0/24',
      '2001:db8::/32',
      '127.0.0.0/8',
      '::1/128',
    ])
    expect(cidrs({ TRUST_PROXY: 'none' })).toEqual([])
  })

  it('turns DEMO off by default when DATABASE_URL is set', () => {
    expect(parseConfig({ DATABASE_URL: 'postgres://u@h/db' }).demo).toBe(false)
    expect(parseConfig({ DATABASE_URL: 'postgres://u@h/db', DEMO: 'true' }).demo).toBe(true)
  })

  // Regression (issue 12): the demo mints guest tokens without authentication; it turned on for
  // any server without DATABASE_URL, including one bound to every interface.
  it('turns DEMO on by default only when bound to a loopback address; DEMO=true still wins', () => {
    for (const HOST of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) {
      expect(parseConfig({ HOST }).demo, HOST).toBe(true)
    }
    for (const HOST of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'strata.example.com', '127.0.0.1.example.com']) {
      expect(parseConfig({ HOST }).demo, HOST).toBe(false)
      expect(parseConfig({ HOST, DEMO: 'true' }).demo, HOST).toBe(true)
    }
    expect(parseConfig({ HOST: '127.0.0.1', DEMO: 'false' }).demo).toBe(false)
  })

  it('puts FILES_ROOT under DATA_DIR unless set, resolved against the working directory', () => {
    expect(parseConfig({ DATA_DIR: 'state' }, '/srv/strata').filesRoot).toBe('/srv/strata/state/files')
    expect(parseConfig({ FILES_ROOT: 'uploads' }, '/srv/strata').filesRoot).toBe('/srv/strata/uploads')
    expect(parseConfig({ FILE_UPLOAD_LIMIT: '2048' }).fileUploadLimit).toBe(2048)
  })

  it('keeps rollups on local disk unless ROLLUP_S3_BUCKET is set; reads ROLLUP_S3_* with it', () => {
    expect(parseConfig({}).rollupS3).toBeUndefined()
    expect(parseConfig({ ROLLUP_S3_BUCKET: 'team-rollups' }).rollupS3).toEqual({
      bucket: 'team-rollups',
      prefix: '',
      region: 'us-east-1',
      endpoint: undefined,
      accessKeyId: undefined,
      secretAccessKey: undefined,
      readCacheMaxBytes: 1024 ** 3,
    })
    const env = {
      ROLLUP_S3_BUCKET: 'team-rollups',
      ROLLUP_S3_PREFIX: '/strata/prod/',
      ROLLUP_S3_REGION: 'eu-west-1',
      ROLLUP_S3_ENDPOINT: 'https://minio.internal:9000',
      ROLLUP_S3_ACCESS_KEY_ID: 'AKIA',
      ROLLUP_S3_SECRET_ACCESS_KEY: 'secret',
      ROLLUP_S3_READ_CACHE_MAX_BYTES: '104857600',
    }
    expect(parseConfig(env).rollupS3).toEqual({
      bucket: 'team-rollups',
      prefix: 'strata/prod',
      region: 'eu-west-1',
      endpoint: 'https://minio.internal:9000',
      accessKeyId: 'AKIA',
      secretAccessKey: 'secret',
      readCacheMaxBytes: 104857600,
    })
    const refused: [Record<string, string>, RegExp][] = [
      [{ ROLLUP_S3_PREFIX: 'x' }, /ROLLUP_S3_PREFIX needs ROLLUP_S3_BUCKET/],
      [{ ROLLUP_S3_READ_CACHE_MAX_BYTES: '1048576' }, /ROLLUP_S3_READ_CACHE_MAX_BYTES needs ROLLUP_S3_BUCKET/],
      [{ ROLLUP_S3_BUCKET: 'ok-bucket', ROLLUP_S3_READ_CACHE_MAX_BYTES: '10' }, /ROLLUP_S3_READ_CACHE_MAX_BYTES/],
      [{ ROLLUP_S3_BUCKET: 'Bad_Bucket' }, /must be an S3 bucket name/],
      [{ ROLLUP_S3_BUCKET: 'ok-bucket', ROLLUP_S3_ENDPOINT: 'ftp://h' }, /ROLLUP_S3_ENDPOINT must be an http/],
      [{ ROLLUP_S3_BUCKET: 'ok-bucket', ROLLUP_S3_ENDPOINT: 'http://u:p@h' }, /ROLLUP_S3_ENDPOINT/],
      [{ ROLLUP_S3_BUCKET: 'ok-bucket', ROLLUP_S3_ACCESS_KEY_ID: 'AKIA' }, /must be set together/],
      [{ ROLLUP_S3_BUCKET: 'ok-bucket', ROLLUP_S3_PREFIX: 'a/../b' }, /must not hold/],
    ]
    for (const [e, message] of refused) {
      expect(() => parseConfig(e)).toThrow(ConfigError)
      expect(() => parseConfig(e)).toThrow(message)
    }
  })

  it('reads SMTP_URL and EMAIL_FROM together', () => {
    const env = { SMTP_URL: 'smtps://u:p@mail.example.com:465', EMAIL_FROM: 'Strata <reports@example.com>' }
    expect(parseConfig(env).email).toEqual({
      smtpUrl: 'smtps://u:p@mail.example.com:465',
      from: 'Strata <reports@example.com>',
    })
  })

  it('normalises BASE_PATH', () => {
    expect(parseConfig({ BASE_PATH: 'analytics/' }).basePath).toBe('/analytics')
    expect(parseConfig({ BASE_PATH: '/' }).basePath).toBe('')
  })

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ SELF_HOSTED: 'maybe' }, /SELF_HOSTED must be true or false/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ RATE_LIMIT: '-1' }, /RATE_LIMIT/],
    [{ ADMIN_EMAIL: 'a@b.co' }, /set together/],
    [{ BASE_PATH: '/a b' }, /BASE_PATH/],
    [{ GRAPHQL_ENGINE_ENDPOINT: 'not a url' }, /GRAPHQL_ENGINE_ENDPOINT/],
    [{ TRUST_PROXY: 'all' }, /TRUST_PROXY must list IP addresses, CIDR ranges/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '10.0.0.0/8/1' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '10.0.0/8' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: 'none, 10.0.0.1' }, /cannot be combined/],
    [{ SMTP_URL: 'smtp://mail.example.com:587' }, /SMTP_URL and EMAIL_FROM must be set together/],
    [{ EMAIL_FROM: 'reports@example.com' }, /SMTP_URL and EMAIL_FROM must be set together/],
    [{ SMTP_URL: 'http://mail.example.com', EMAIL_FROM: 'reports@example.com' }, /smtp:\/\/ or smtps:\/\//],
    [{ SMTP_URL: 'not a url', EMAIL_FROM: 'reports@example.com' }, /SMTP_URL must be a URL/],
    [{ SMTP_URL: 'smtp://mail.example.com', EMAIL_FROM: 'nobody' }, /EMAIL_FROM must be an email address/],
  ])('rejects %j with a clear message', (env, message) => {
    expect(() => parseConfig(env)).toThrow(ConfigError)
    expect(() => parseConfig(env)).toThrow(message)
  })

  it('reads LLM_PROVIDERS, LLM_TIMEOUT_MS and LLM_MAX_ANSWER_BYTES', () => {
    const config = parseConfig({
      LLM_PROVIDERS: JSON.stringify({
        openai: { baseUrl: 'https://api.openai.com/v1/', apiKey: 'sk-1', model: 'gpt-4o-mini' },
        local: { baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'ollama', model: 'llama3.1' },
      }),
      LLM_TIMEOUT_MS: '5000',
      LLM_MAX_ANSWER_BYTES: '65536',
    })
    expect(config.llmProviders).toEqual({
      openai: { baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-1', model: 'gpt-4o-mini' },
      local: { baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'ollama', model: 'llama3.1' },
    })
    expect(config.llmTimeoutMs).toBe(5000)
    expect(config.llmMaxAnswerBytes).toBe(65_536)
    expect(parseConfig({}).llmMaxAnswerBytes).toBe(2 * 1024 * 1024)
  })

  it('refuses a malformed LLM_PROVIDERS, naming the provider and field but never a value', () => {
    const secret = 'sk-very-secret-value'
    const fails = (value: unknown, message: RegExp) => {
      const run = () => parseConfig({ LLM_PROVIDERS: typeof value === 'string' ? value : JSON.stringify(value) })
      expect(run).toThrow(ConfigError)
      expect(run).toThrow(message)
      try {
        run()
      } catch (err) {
        expect((err as Error).message).not.toContain(secret)
      }
    }
    fails(`{"a": {"apiKey": "${secret}"`, /LLM_PROVIDERS must be a JSON object/)
    fails([{ baseUrl: 'http://x', apiKey: secret, model: 'm' }], /LLM_PROVIDERS must be a JSON object/)
    fails({ a: 'http://x' }, /LLM_PROVIDERS\["a"\] must be an object/)
    fails({ a: { baseUrl: 'http://x', apiKey: secret } }, /LLM_PROVIDERS\["a"\]\.model must be a non-empty string/)
    fails({ a: { baseUrl: 'http://x', model: 'm' } }, /LLM_PROVIDERS\["a"\]\.apiKey must be a non-empty string/)
    fails(
      { a: { baseUrl: secret, apiKey: secret, model: 'm' } },
      /LLM_PROVIDERS\["a"\]\.baseUrl must be an http\(s\) URL/,
    )
    fails({ a: { baseUrl: 'ftp://x', apiKey: secret, model: 'm' } }, /baseUrl must be an http\(s\) URL/)
    fails({ a: { baseUrl: 'http://x', apiKey: secret, model: 'm', key2: secret } }, /unknown fields: key2/)
    expect(() => parseConfig({ LLM_TIMEOUT_MS: '10' })).toThrow(/LLM_TIMEOUT_MS must be between 100 and 600000/)
  })
})
