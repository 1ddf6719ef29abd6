import fc from 'fast-check'
import type { LightMyRequestResponse } from 'fastify'
import { violations } from './oracle.js'
import { type FuzzRequest, type Operation, operationsOf, requestFor, strayRequest } from './requests.js'
import type { JsonSchema, SchemaContext } from './schema-arbitraries.js'
import type { Fixture, FuzzTarget } from './target.js'

export interface FuzzOptions {
  readonly runs: number
  readonly seed: number
  /** Called every `progressEvery` cases with the running totals. */
  readonly progress?: (stats: FuzzStats) => void
  readonly progressEvery?: number
  /** A request that is not answered within this long is a violation. */
  readonly caseTimeoutMs?: number
}

export interface Failure {
  readonly label: string
  readonly violation: string
  readonly count: number
  /** The first request that showed it, abbreviated. */
  readonly example: {
    method: string
    url: string
    auth: string
    headers: Record<string, string>
    payload: string
    /** For a nesting mutation: where the deep JSON was, how deep, what shape. */
    nesting?: string
  }
  readonly answer: string
}

export interface FuzzStats {
  cases: number
  /** HTTP status → count. */
  readonly statuses: Record<string, number>
  /** `status CODE` → count. */
  readonly codes: Record<string, number>
  /** Operation → cases. */
  readonly operations: Record<string, number>
  /** `operation status` → count. */
  readonly byOperation: Record<string, number>
  /** Requests the HTTP client itself refused to send (not counted as cases). */
  clientRejected: number
  /** Cases the nesting mutations made (deep JSON in the body, at a nested position of it, or in the query). */
  readonly nested: {
    cases: number
    /** Operation → nested cases. */
    readonly operations: Record<string, number>
    /** Distinct `operation where position` tried. */
    readonly positions: Set<string>
    deepest: number
  }
  /** Fresh fixtures built because fuzzed requests had broken the old one. */
  rebuilds: number
  readonly failures: Failure[]
  readonly seed: number
  ms: number
}

const DESTRUCTIVE = /delete|rename/i

/**
 * Generates requests from the OpenAPI document the app serves and checks every answer
 * against the oracle. Runs in batches (fresh seeds per batch); every few hundred cases the
 * fixture is probed and rebuilt when fuzzed requests broke it (a replaced token, say), so
 * the run keeps reaching deep.
 */
export async function runFuzz(target: FuzzTarget, options: FuzzOptions): Promise<FuzzStats> {
  const started = performance.now()
  const stats: FuzzStats = {
    cases: 0,
    statuses: {},
    codes: {},
    operations: {},
    byOperation: {},
    clientRejected: 0,
    nested: { cases: 0, operations: {}, positions: new Set(), deepest: 0 },
    rebuilds: 0,
    failures: [],
    seed: options.seed,
    ms: 0,
  }
  const failures = new Map<string, Failure>()
  const spec = await target.fixture.app.inject({ method: 'GET', url: '/openapi.json' })
  const doc = spec.json() as Parameters<typeof operationsOf>[0]
  const ops = operationsOf(doc)
  if (ops.length < 40) throw new Error(`only ${ops.length} operations in /openapi.json`)
  const components = doc.components?.schemas ?? {}
  const resolve = (ref: string) => components[ref.replace('#/components/schemas/', '')] as JsonSchema | undefined

  const arbitraryFor = () => {
    const fixture = target.fixture
    const poolFor = (op: Operation): SchemaContext => ({
      resolve,
      examples: fixture.examples[`${op.method} ${op.path}`],
      pool: (field) => {
        // deleting and renaming requests get the sacrificial embeds, not the ones the run needs
        if (field === 'embedId' && (op.method === 'DELETE' || DESTRUCTIVE.test(op.path) || op.path.endsWith('/embeds')))
          return fixture.victims.length > 0 ? fixture.victims : undefined
        return fixture.pools[field]
      },
    })
    return fc.oneof(
      // the data paths (queries, the browser's runtime) are where tenancy and SQL live: fuzz them most
      ...ops.map((op) => ({ weight: /query|runtime/.test(op.path) ? 12 : 4, arbitrary: requestFor(op, poolFor) })),
      { weight: 8, arbitrary: strayRequest(ops) },
    )
  }

  let arbitrary = arbitraryFor()
  const timeoutMs = options.caseTimeoutMs ?? 15_000
  const batch = 200
  const every = options.progressEvery ?? 10_000
  let nextProgress = every
  for (let done = 0, round = 0; done < options.runs; round++) {
    const n = Math.min(batch, options.runs - done)
    const requests = fc.sample(arbitrary, { numRuns: n, seed: options.seed + round })
    for (const req of requests) {
      const res = await send(target.fixture, req, timeoutMs)
      if (res === 'rejected') {
        stats.clientRejected++
        continue
      }
      stats.cases++
      const key = req.op ? req.label : 'stray'
      stats.operations[key] = (stats.operations[key] ?? 0) + 1
      if (req.nesting) {
        stats.nested.cases++
        stats.nested.operations[key] = (stats.nested.operations[key] ?? 0) + 1
        stats.nested.positions.add(`${key} ${req.nesting.where} ${req.nesting.at}`)
        stats.nested.deepest = Math.max(stats.nested.deepest, req.nesting.depth)
      }
      if (res === 'timeout') {
        for (const v of violations(req, res)) record(failures, req, v, `no answer in ${timeoutMs} ms`)
        continue
      }
      const status = String(res.statusCode)
      stats.statuses[status] = (stats.statuses[status] ?? 0) + 1
      const code = errorCode(res)
      const codeKey = code ? `${status} ${code}` : status
      stats.codes[codeKey] = (stats.codes[codeKey] ?? 0) + 1
      stats.byOperation[`${key} → ${codeKey}`] = (stats.byOperation[`${key} → ${codeKey}`] ?? 0) + 1
      for (const v of violations(req, res)) record(failures, req, v, `${res.statusCode} ${res.body.slice(0, 300)}`)
      target.observe(req.method, req.url, res.statusCode, res.body)
    }
    done += n
    if (!(await target.healthy())) {
      await target.build()
      stats.rebuilds++
      arbitrary = arbitraryFor()
    }
    if (options.progress && done >= nextProgress) {
      nextProgress += every
      stats.ms = Math.round(performance.now() - started)
      options.progress({ ...stats, failures: [...failures.values()] })
    }
  }
  stats.failures.push(...failures.values())
  stats.ms = Math.round(performance.now() - started)
  return stats
}

/**
 * Sends one case to the in-process app with the tokens of the moment: its answer, `timeout`
 * when none came within `timeoutMs`, or `rejected` when the HTTP client refused to send it.
 */
export async function send(
  fixture: Pick<Fixture, 'app' | 'tokens'>,
  req: FuzzRequest,
  timeoutMs: number,
): Promise<LightMyRequestResponse | 'timeout' | 'rejected'> {
  const { tokens } = fixture
  const headers: Record<string, string> = { ...req.headers }
  if (req.auth.kind === 'right' && req.op?.security) headers.authorization = `Bearer ${tokens[req.op.security]}`
  if (req.auth.kind === 'wrong') headers.authorization = `Bearer ${tokens[req.auth.as]}`
  if (req.auth.kind === 'garbage') headers.authorization = req.auth.header
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs)
  })
  try {
    const answer = fixture.app.inject({
      method: req.method as 'GET',
      url: req.url,
      headers,
      ...(req.payload === undefined ? {} : { payload: req.payload }),
    })
    return await Promise.race([answer, timeout])
  } catch {
    return 'rejected'
  } finally {
    clearTimeout(timer)
  }
}

function errorCode(res: LightMyRequestResponse): string | undefined {
  if (res.statusCode < 400) return undefined
  try {
    const code = (JSON.parse(res.body) as { error?: { code?: unknown } }).error?.code
    return typeof code === 'string' ? code : undefined
  } catch {
    return undefined
  }
}

function record(failures: Map<string, Failure>, req: FuzzRequest, violation: string, answer: string): void {
  // a nesting mutation's violations are told apart by position: each is a place the server recurses
  const where = req.nesting ? `${req.nesting.where} ${req.nesting.at}` : ''
  const key = `${req.label}|${where}|${violation.replace(/\d+/g, 'N')}`
  const known = failures.get(key)
  if (known) {
    failures.set(key, { ...known, count: known.count + 1 })
    return
  }
  const payload =
    req.payload === undefined
      ? ''
      : typeof req.payload === 'string'
        ? req.payload
        : `<${req.payload.length} bytes> ${req.payload.subarray(0, 200).toString('latin1')}`
  failures.set(key, {
    label: req.label,
    violation,
    count: 1,
    example: {
      method: req.method,
      url: req.url.slice(0, 500),
      auth: req.auth.kind === 'wrong' ? `wrong: ${req.auth.as}` : req.auth.kind,
      headers: req.headers,
      payload: payload.slice(0, 1_000),
      ...(req.nesting
        ? { nesting: `${req.nesting.where} ${req.nesting.at}: ${req.nesting.depth} levels, ${req.nesting.shape}` }
        : {}),
    },
    answer,
  })
}

/** A one-line histogram: `200: 1234, 400: 5678 …` by descending count. */
export function histogram(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')
}
