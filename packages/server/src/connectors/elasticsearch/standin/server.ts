/**
 * A local STAND-IN for an Elasticsearch or OpenSearch cluster (test code, never shipped; never
 * called a live test): an HTTP server speaking the part of the documented REST API the
 * connector uses, so the official clients (@elastic/elasticsearch, @opensearch-project/opensearch)
 * run unchanged against it:
 * - `GET /`: the info document (version, `distribution: opensearch` for OpenSearch) and, as
 *   Elasticsearch, the `x-elastic-product: Elasticsearch` header the @elastic client checks;
 * - the media types of `Accept` and `Content-Type` checked as the imitated Elasticsearch version
 *   (`version`: 7.17, 8.x or 9.x) checks them (media-types.ts): a 9.x client's compatible-with=9 is
 *   refused by 8.x and 7.x with 400 `media_type_header_exception`;
 * - basic auth on every request, or (`sigv4`) AWS SigV4 as OpenSearch on AWS checks it (`es` or `aoss`) (401 `security_exception` with the cluster's wording);
 * - `GET /_cat/indices`, `/_cat/aliases` (format=json), `GET /_mapping`, `GET /<index>/_mapping`
 *   (properties in the order the index was created with; a real cluster sorts them);
 * - `POST /<index>/_search`: the query DSL and aggregations the `elasticsearch` dialect compiles
 *   (term, terms, range with time_zone, exists, wildcard, bool; composite with terms and
 *   date_histogram sources paged by `after`, sum/avg/min/max/value_count/cardinality; documents
 *   with _source, sort, from/size; track_total_hits), evaluated by `mingo` (dsl.ts) over in-memory
 *   documents; errors as the cluster's bodies (404 index_not_found_exception, 400
 *   search_phase_execution_exception naming the shard failure);
 * - the `timeout` parameter: a search still running at its end answers `timed_out: true`.
 * Test-only: a search of the index `strata-slow` never finishes by itself — it is held until its
 * `timeout` passes or the client closes the connection (the cancel the connector relies on);
 * `running(marker)` counts held searches whose body contains `marker`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { verifySigV4 } from '../../../../test/standins/sigv4.js'
import { accumulator, bucketStart, DslError, type Field, grouped, matching, parseDate, Translator } from './dsl.js'
import { mediaTypeRefusal } from './media-types.js'

type Json = Record<string, unknown>
export type Flavour = 'elasticsearch' | 'opensearch'
export const SLOW_INDEX = 'strata-slow'

interface Property {
  type?: string
  format?: string
  properties?: Record<string, Property>
  fields?: Record<string, Property>
}
interface Index {
  readonly mappings: { properties: Record<string, Property> }
  readonly fields: Map<string, Field>
  readonly sources: Json[]
  readonly docs: Json[]
}

export interface StandInOptions {
  readonly flavour: Flavour
  /** Accepted basic-auth users (username → password); absent: no authentication. */
  readonly users?: Readonly<Record<string, string>>
  /**
   * The Elasticsearch version imitated (default 9.0.0): `GET /` reports it and the media types of
   * every request are checked as that major checks them (media-types.ts). Ignored for OpenSearch.
   */
  readonly version?: string
  /**
   * AWS IAM instead of basic auth, as an OpenSearch Service domain (`es`) or an OpenSearch
   * Serverless collection (`aoss`) checks it: every request must carry a valid SigV4 signature
   * (../athena/sigv4.ts recomputes it) for this region and service, by a known key; otherwise 403.
   */
  readonly sigv4?: {
    readonly service: 'es' | 'aoss'
    readonly region: string
    /** access key ID → secret access key */
    readonly keys: Readonly<Record<string, string>>
  }
}

function fieldsOf(
  properties: Record<string, Property>,
  prefix = '',
  out = new Map<string, Field>(),
): Map<string, Field> {
  for (const [name, p] of Object.entries(properties)) {
    const path = `${prefix}${name}`
    const type = p.type ?? 'object'
    if (type === 'object') {
      fieldsOf(p.properties ?? {}, `${path}.`, out)
      continue
    }
    const key = `f${out.size}`
    out.set(path, { key, type, text: type === 'text' })
    for (const [sub, sp] of Object.entries(p.fields ?? {})) {
      // a keyword sub-field indexes the same source value
      out.set(`${path}.${sub}`, { key, type: sp.type ?? 'keyword', text: sp.type === 'text' })
    }
  }
  return out
}

function lookup(doc: Json, path: string): unknown {
  if (path in doc) return doc[path]
  let cur: unknown = doc
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Json)[part]
  }
  return cur
}

export class SearchStandIn {
  private server: Server | undefined
  private readonly indices = new Map<string, Index>()
  private readonly held = new Set<{ body: string }>()
  port = 0

  constructor(private readonly options: StandInOptions) {}

  private get major(): number {
    return Number(/^\d+/.exec(this.options.version ?? '9.0.0')?.[0])
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /** Creates an index with its mapping and documents (the fixture's data). */
  createIndex(name: string, properties: Record<string, Property>, documents: readonly Json[]): void {
    const fields = fieldsOf(properties)
    const docs = documents.map((d) => {
      const flat: Json = {}
      for (const [path, f] of fields) {
        const v = lookup(d, path)
        if (v === undefined || v === null) continue
        flat[f.key] = f.type === 'date' ? parseDate(v) : v
      }
      return flat
    })
    this.indices.set(name, { mappings: { properties }, fields, sources: documents.map((d) => ({ ...d })), docs })
  }

  /** Held searches whose body contains `marker`. */
  running(marker: string): number {
    return [...this.held].filter((h) => h.body.includes(marker)).length
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) =>
        send(res, 500, { error: { type: 'exception', reason: String(err) }, status: 500 }, this.options.flavour),
      )
    })
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve))
    this.port = (this.server.address() as AddressInfo).port
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections()
    await new Promise<void>((resolve) => this.server?.close(() => resolve()))
  }

  private authorised(req: IncomingMessage): boolean {
    const users = this.options.users
    if (users === undefined) return true
    const m = /^Basic (.+)$/.exec(req.headers.authorization ?? '')
    if (!m) return false
    const [user, ...rest] = Buffer.from(m[1] as string, 'base64')
      .toString('utf8')
      .split(':')
    return user !== undefined && users[user] !== undefined && users[user] === rest.join(':')
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const flavour = this.options.flavour
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    const url = new URL(req.url ?? '/', 'http://stand-in')
    if (flavour === 'elasticsearch') {
      const refused = mediaTypeRefusal(this.major, {
        accept: req.headers.accept,
        contentType: req.headers['content-type'],
      })
      if (refused) return send(res, 400, refused, flavour)
    }
    const sigv4 = this.options.sigv4
    if (sigv4) {
      // https://docs.aws.amazon.com/opensearch-service/latest/developerguide/ac.html#managedomains-signing-service-requests
      const check = verifySigV4(req.method ?? 'GET', url, req.headers, Buffer.from(text), sigv4.keys)
      const problem = !check.ok
        ? check.message
        : check.service !== sigv4.service || check.region !== sigv4.region
          ? `Credential should be scoped to correct service/region: '${sigv4.region}/${sigv4.service}'`
          : undefined
      if (problem !== undefined) return send(res, 403, { message: problem }, flavour)
    } else if (!this.authorised(req)) {
      res.setHeader('WWW-Authenticate', 'Basic realm="security" charset="UTF-8"')
      return send(
        res,
        401,
        error('security_exception', `unable to authenticate user for REST request [${url.pathname}]`, 401),
        flavour,
      )
    }
    const parts = url.pathname
      .split('/')
      .filter((p) => p !== '')
      .map(decodeURIComponent)
    if (parts.length === 0) {
      const version =
        flavour === 'opensearch'
          ? { distribution: 'opensearch', number: '2.11.0', lucene_version: '9.7.0' }
          : { number: this.options.version ?? '9.0.0', build_flavor: 'default', lucene_version: '10.1.0' }
      return send(
        res,
        200,
        { name: 'stand-in', cluster_name: 'strata-stand-in', version, tagline: 'You Know, for Search' },
        flavour,
      )
    }
    if (parts[0] === '_cat' && parts[1] === 'indices') {
      return send(
        res,
        200,
        [...this.indices.keys()].map((index) => ({ index })),
        flavour,
      )
    }
    if (parts[0] === '_cat' && parts[1] === 'aliases') return send(res, 200, [], flavour)
    if (parts[0] === '_mapping') return send(res, 200, this.mappings([...this.indices.keys()]), flavour)
    const names = (parts[0] ?? '').split(',')
    const missing = names.find((n) => !this.indices.has(n))
    if (missing !== undefined) {
      return send(
        res,
        404,
        { ...error('index_not_found_exception', `no such index [${missing}]`, 404), index: missing },
        flavour,
      )
    }
    if (parts[1] === '_mapping') return send(res, 200, this.mappings(names), flavour)
    if (parts[1] === '_search') {
      const timeout = parseTimeout(url.searchParams.get('timeout'))
      if (names.includes(SLOW_INDEX)) return this.hold(req, res, text, timeout)
      try {
        const body = text === '' ? {} : (JSON.parse(text) as Json)
        return send(res, 200, this.search(names, body), flavour)
      } catch (err) {
        if (!(err instanceof DslError)) throw err
        const cause = { type: err.type, reason: err.message }
        return send(
          res,
          400,
          {
            error: {
              root_cause: [cause],
              type: 'search_phase_execution_exception',
              reason: 'all shards failed',
              phase: 'query',
              grouped: true,
              failed_shards: [{ shard: 0, index: names[0], node: 'stand-in', reason: cause }],
            },
            status: 400,
          },
          flavour,
        )
      }
    }
    return send(
      res,
      400,
      error('illegal_argument_exception', `no handler for [${req.method} ${url.pathname}]`, 400),
      flavour,
    )
  }

  private mappings(names: readonly string[]): Json {
    return Object.fromEntries(names.map((n) => [n, { mappings: this.indices.get(n)?.mappings }]))
  }

  /** The test-only slow search: held until its timeout (timed_out: true) or the client hangs up. */
  private hold(req: IncomingMessage, res: ServerResponse, body: string, timeout: number | undefined): void {
    const entry = { body }
    this.held.add(entry)
    const done = () => {
      this.held.delete(entry)
      clearTimeout(timer)
    }
    const timer =
      timeout === undefined
        ? undefined
        : setTimeout(() => {
            done()
            send(
              res,
              200,
              { took: timeout, timed_out: true, _shards: { total: 1, successful: 1, failed: 0 }, hits: { hits: [] } },
              this.options.flavour,
            )
          }, timeout)
    res.on('close', done)
    req.on('close', () => {
      if (!res.writableEnded) done()
    })
  }

  private search(names: readonly string[], body: Json): Json {
    const indices = names.map((n) => this.indices.get(n) as Index)
    const first = indices[0] as Index
    const t = new Translator(first.fields)
    const criteria = body.query === undefined || body.query === null ? {} : t.query(body.query)
    const hitsOf = (ix: Index) =>
      matching(
        ix.docs.map((d, i) => ({ ...d, __i: i })),
        criteria,
      )
    const matched = indices.flatMap((ix) => hitsOf(ix).map((d) => ({ ix, d })))
    const answer: Json = { took: 1, timed_out: false, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } }
    const total = { value: matched.length, relation: 'eq' }
    let hits = matched
    if (Array.isArray(body.sort)) {
      const sorts = (body.sort as Json[]).map((s) => {
        const [name, spec] = Object.entries(s)[0] as [string, Json]
        return { f: t.field(name, true), desc: spec?.order === 'desc' }
      })
      hits = [...hits].sort((a, b) => {
        for (const { f, desc } of sorts) {
          const c = compare(a.d[f.key], b.d[f.key])
          if (c !== 0) return desc ? -c : c
        }
        return 0
      })
    }
    const from = typeof body.from === 'number' ? body.from : 0
    const size = typeof body.size === 'number' ? body.size : 10
    if (from + size > 10_000) {
      throw new DslError(
        'illegal_argument_exception',
        `Result window is too large, from + size must be less than or equal to: [10000] but was [${from + size}].`,
      )
    }
    const fields = Array.isArray(body._source) ? (body._source as string[]) : undefined
    answer.hits = {
      ...(body.track_total_hits === false ? {} : { total }),
      hits: hits.slice(from, from + size).map(({ ix, d }) => {
        const src = ix.sources[d.__i as number] as Json
        return {
          _index: names[0],
          _source: fields
            ? Object.fromEntries(fields.filter((f) => lookup(src, f) !== undefined).map((f) => [f, lookup(src, f)]))
            : src,
        }
      }),
    }
    if (body.aggs !== undefined || body.aggregations !== undefined) {
      answer.aggregations = this.aggregations(
        (body.aggs ?? body.aggregations) as Json,
        matched.map((m) => m.d),
        t,
      )
    }
    return answer
  }

  private aggregations(aggs: Json, docs: Json[], t: Translator): Json {
    const out: Json = {}
    const metrics: Json = {}
    const kinds: Record<string, { kind: string; field: Field }> = {}
    for (const [name, spec] of Object.entries(aggs)) {
      const entries = Object.entries(spec as Json).filter(([k]) => k !== 'aggs' && k !== 'aggregations')
      const [kind, def] = entries[0] as [string, Json]
      if (kind === 'composite') {
        out[name] = this.composite(def, ((spec as Json).aggs ?? {}) as Json, docs, t)
        continue
      }
      const field = t.field(String(def.field), true)
      kinds[name] = { kind, field }
      metrics[name] = accumulator(kind, field.key)
    }
    if (Object.keys(metrics).length > 0) {
      const [g] = grouped(
        docs.map((d) => ({ ...d, _k: null })),
        metrics,
      )
      Object.assign(out, metricValues(g ?? { doc_count: 0 }, kinds))
    }
    return out
  }

  private composite(def: Json, subAggs: Json, docs: Json[], t: Translator): Json {
    const sources = (def.sources as Json[]).map((s) => {
      const [name, spec] = Object.entries(s)[0] as [string, Json]
      const [kind, d] = Object.entries(spec)[0] as [string, Json]
      const f = t.field(String(d.field), true)
      if (kind === 'terms') return { name, key: (doc: Json) => doc[f.key] ?? null }
      if (kind === 'date_histogram') {
        const interval = String(d.calendar_interval)
        const zone = typeof d.time_zone === 'string' ? d.time_zone : 'UTC'
        return {
          name,
          key: (doc: Json) => (doc[f.key] === undefined ? null : bucketStart(doc[f.key] as number, interval, zone)),
        }
      }
      throw new DslError('parsing_exception', `Unknown value source [${kind}]`)
    })
    const metrics: Json = {}
    const kinds: Record<string, { kind: string; field: Field }> = {}
    for (const [name, spec] of Object.entries(subAggs)) {
      const [kind, d] = Object.entries(spec as Json)[0] as [string, Json]
      const field = t.field(String(d.field), true)
      kinds[name] = { kind, field }
      metrics[name] = accumulator(kind, field.key)
    }
    const keyed = docs.map((d) => ({ ...d, _k: Object.fromEntries(sources.map((s) => [s.name, s.key(d)])) }))
    const groups = grouped(keyed, metrics)
      .map((g) => ({ key: g._id as Json, g }))
      .sort((a, b) => {
        for (const s of sources) {
          const c = compare(a.key[s.name], b.key[s.name])
          if (c !== 0) return c
        }
        return 0
      })
    const after = def.after as Json | undefined
    const start =
      after === undefined
        ? 0
        : groups.findIndex((x) => {
            for (const s of sources) {
              const c = compare(x.key[s.name], after[s.name] ?? null)
              if (c !== 0) return c > 0
            }
            return false
          })
    const size = typeof def.size === 'number' ? def.size : 10
    const page = start < 0 ? [] : groups.slice(start, start + size)
    const buckets = page.map(({ key, g }) => ({ key, doc_count: g.doc_count, ...metricValues(g, kinds) }))
    const last = buckets[buckets.length - 1]
    return { ...(last ? { after_key: last.key } : {}), buckets }
  }
}

function metricValues(g: Json, kinds: Record<string, { kind: string; field: Field }>): Json {
  const out: Json = {}
  for (const [name, { kind, field }] of Object.entries(kinds)) {
    let value = g[name] ?? null
    if (kind === 'cardinality') {
      value = Array.isArray(value) ? value.filter((v) => v !== null && v !== undefined).length : 0
    }
    if ((kind === 'sum' || kind === 'value_count') && value === null) value = 0
    out[name] =
      field.type === 'date' && typeof value === 'number' && (kind === 'min' || kind === 'max')
        ? { value, value_as_string: new Date(value).toISOString() }
        : { value }
  }
  return out
}

/** null first (missing_bucket's default order), then numbers, booleans, strings. */
function compare(a: unknown, b: unknown): number {
  if (a === b) return 0
  if (a === null || a === undefined) return -1
  if (b === null || b === undefined) return 1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'boolean' && typeof b === 'boolean') return a ? 1 : -1
  return String(a) < String(b) ? -1 : 1
}

function parseTimeout(v: string | null): number | undefined {
  if (v === null) return undefined
  const m = /^(\d+)(ms|s|m)$/.exec(v)
  if (!m) return undefined
  return Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 's' ? 1000 : 60_000)
}

function error(type: string, reason: string, status: number): Json {
  return { error: { root_cause: [{ type, reason }], type, reason }, status }
}

function send(res: ServerResponse, status: number, body: unknown, flavour: Flavour): void {
  if (res.writableEnded || res.destroyed) return
  res.statusCode = status
  res.setHeader('content-type', 'application/json; charset=UTF-8')
  if (flavour === 'elasticsearch') res.setHeader('x-elastic-product', 'Elasticsearch')
  res.end(JSON.stringify(body))
}
