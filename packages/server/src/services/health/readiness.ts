import type { Config } from '../../config.js'

export type CheckStatus = 'UP' | 'DOWN' | 'UNKNOWN'

export interface CheckResult {
  status: CheckStatus
  statusCode?: number
  error?: string
}

export interface Readiness {
  status: 'ready' | 'not_ready'
  checks: Record<string, CheckResult>
}

export interface ReadinessDeps {
  readonly config: Pick<Config, 'graphqlEngineEndpoint' | 'identityServerUrl' | 'redisUrl'>
  readonly pingStore: () => Promise<void>
  readonly pingRedis?: () => Promise<void>
  readonly timeoutMs?: number
}

/** Runs `probe`, failing it when it takes longer than `ms`. */
async function bounded(ms: number, probe: (signal: AbortSignal) => Promise<CheckResult>): Promise<CheckResult> {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => {
      controller.abort()
      resolve({ status: 'DOWN', error: `no answer within ${ms} ms` })
    }, ms)
  })
  try {
    return await Promise.race([
      probe(controller.signal).catch((err: unknown) => ({ status: 'DOWN' as const, error: describe(err) })),
      timeout,
    ])
  } finally {
    clearTimeout(timer)
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err.cause as { code?: string } | undefined)?.code
    return cause ? `${err.message} (${cause})` : err.message || err.name
  }
  return String(err)
}

const pingCheck = (ping: () => Promise<void>) => async (): Promise<CheckResult> => {
  await ping()
  return { status: 'UP' }
}

const httpCheck =
  (url: string) =>
  async (signal: AbortSignal): Promise<CheckResult> => {
    const res = await fetch(url, { signal })
    await res.body?.cancel()
    return res.ok
      ? { status: 'UP', statusCode: res.status }
      : { status: 'DOWN', statusCode: res.status, error: `HTTP ${res.status}` }
  }

/**
 * The readiness checks (docs/operations.md#health-probes): `postgres` probes the metadata store,
 * `hasura` the GraphQL engine when configured (else the in-process metadata layer),
 * `keycloak` and `redis` only when configured; each bounded by 3 s, all run in parallel.
 */
export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  const ms = deps.timeoutMs ?? 3000
  const { graphqlEngineEndpoint, identityServerUrl } = deps.config
  const probes: Record<string, (signal: AbortSignal) => Promise<CheckResult>> = {
    postgres: pingCheck(deps.pingStore),
    hasura: graphqlEngineEndpoint ? httpCheck(`${graphqlEngineEndpoint}/healthz`) : pingCheck(deps.pingStore),
  }
  if (identityServerUrl) probes.keycloak = httpCheck(`${identityServerUrl}/health/live`)
  if (deps.pingRedis) probes.redis = pingCheck(deps.pingRedis)
  const names = Object.keys(probes)
  const results = await Promise.all(
    names.map((name) => bounded(ms, probes[name] as (s: AbortSignal) => Promise<CheckResult>)),
  )
  const checks = Object.fromEntries(names.map((name, i) => [name, results[i] as CheckResult]))
  const ready = results.every((r) => r.status === 'UP')
  return { status: ready ? 'ready' : 'not_ready', checks }
}
