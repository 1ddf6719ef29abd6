import type { LightMyRequestResponse } from 'fastify'
import { ERROR_CODES } from '../../src/errors.js'
import type { FuzzRequest } from './requests.js'

const CODES = new Set<string>(ERROR_CODES)
const ERROR_KEYS = new Set(['code', 'message', 'status', 'details'])

/** What the fuzzer got back: an answer, or none within the case timeout. */
export type Answer = LightMyRequestResponse | 'timeout'

/**
 * docs/errors.md: every failure is the API's error JSON with the documented code and status;
 * nothing returns HTML or a stack trace; no input, however malformed, produces a 5xx.
 * Plus: every request is answered within the case timeout (a hang is a violation), a
 * request without the operation's token kind is never served, and a body nested deep (the
 * nesting mutations: at least MIN_NESTING levels) is never served either: past a sane
 * nesting bound every JSON body is a 4xx, and so is JSON in a query parameter that carries it. Returns the violations (empty when the answer is
 * acceptable).
 */
export function violations(req: FuzzRequest, res: Answer): string[] {
  if (res === 'timeout') return ['no answer within the case timeout']
  const out: string[] = []
  const status = res.statusCode
  const type = String(res.headers['content-type'] ?? '')
  const body = res.body
  if (status >= 500) out.push(`status ${status}`)
  if (status < 200 || (status >= 300 && status < 400 && !documentedRedirect(req, res)))
    out.push(`unexpected status ${status}`)
  if (status === 204 && req.method !== 'OPTIONS') out.push('204 outside a preflight')
  // an error message may quote the input (inside JSON); the answer itself must never be a page
  if (/text\/html/i.test(type) || /^\s*</.test(body)) out.push('HTML in the answer')
  if (/\bat [^\n]*\.(ts|js):\d+:\d+|node_modules\//.test(body)) out.push('a stack trace in the answer')
  if (status >= 400) {
    if (!/^application\/json/i.test(type)) out.push(`error with content-type "${type}"`)
    if (req.method !== 'HEAD') out.push(...errorShape(body), ...undocumented(req, status, body))
  } else if (status === 200 && req.method !== 'HEAD' && !/^text\/csv/.test(type)) {
    if (!/^application\/json/i.test(type)) out.push(`200 with content-type "${type}"`)
    else {
      try {
        JSON.parse(body)
      } catch {
        out.push('200 with a body that is not JSON')
      }
    }
  }
  // wrong token kind, garbage or no token: never served
  if (req.op?.security && req.auth.kind !== 'right' && status < 300 && req.method !== 'OPTIONS') {
    out.push(`served with ${req.auth.kind === 'wrong' ? `a ${req.auth.as}` : `${req.auth.kind} credentials`}`)
  }
  // a GET or an operation without a body schema may ignore a body; one that takes JSON may not serve a deep one
  if (req.nesting?.where === 'body' && req.op?.body && status < 300) {
    out.push(`a body nested ${req.nesting.depth} levels deep (at ${req.nesting.at}) was served ${status}`)
  }
  // JSON in a query parameter is read under the body's rules: a deep one is never served either
  if (req.nesting?.where === 'query' && req.nesting.json && status < 300) {
    out.push(`query JSON nested ${req.nesting.depth} levels deep (at ${req.nesting.at}) was served ${status}`)
  }
  if (({} as Record<string, unknown>).polluted !== undefined) out.push('Object.prototype was polluted')
  return out
}

/** The paths docs/api.md documents as redirects: `GET /` (to /demo or /docs) and the API reference's old index. */
const REDIRECTS = new Set(['/', '/docs/static/index.html'])

/** A 3xx that the API documents: a GET or HEAD of a redirecting path, to a path of this server. */
function documentedRedirect(req: FuzzRequest, res: LightMyRequestResponse): boolean {
  const location = res.headers.location
  return (
    (req.method === 'GET' || req.method === 'HEAD') &&
    REDIRECTS.has(req.url.split('?')[0] ?? '') &&
    typeof location === 'string' &&
    location.startsWith('/') &&
    !location.startsWith('//')
  )
}

/**
 * The failure is one /openapi.json lists for the operation: its status, with its code named.
 * Only when the request reached the operation's route (a fuzzed path parameter holding a `/`
 * reaches another route, or none: the router's 404).
 */
function undocumented(req: FuzzRequest, status: number, body: string): string[] {
  const op = req.op
  if (!op) return []
  const path = req.url.split('?')[0] ?? ''
  const template = new RegExp(
    `^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}/?$`,
  )
  if (!template.test(path)) return []
  let code: unknown
  try {
    code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code
  } catch {
    return []
  }
  if (status === 404 && code === 'NOT_FOUND') return [] // a path parameter the router refused to match
  const documented = op.responses[String(status)]
  if (!documented) return [`status ${status} (${String(code)}) is not documented for the operation`]
  return documented.includes(String(code)) ? [] : [`${status} ${String(code)} is not documented for the operation`]
}

function errorShape(body: string): string[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return [`error body is not JSON: ${body.slice(0, 200)}`]
  }
  const error = (parsed as { error?: Record<string, unknown> } | null)?.error
  if (!error || typeof error !== 'object') return [`no error object: ${body.slice(0, 200)}`]
  const out: string[] = []
  if (typeof error.code !== 'string' || !CODES.has(error.code)) out.push(`unknown error code ${String(error.code)}`)
  if (typeof error.message !== 'string' || error.message === '') out.push('error without a message')
  if (error.code === 'INTERNAL_SERVER_ERROR') out.push('INTERNAL_SERVER_ERROR')
  for (const key of Object.keys(error)) if (!ERROR_KEYS.has(key)) out.push(`unexpected error field ${key}`)
  if (Object.keys(parsed as object).length !== 1) out.push('fields beside "error" in an error answer')
  return out
}
