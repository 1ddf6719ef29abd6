import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { ApiError } from '../../errors.js'
import { serveBuiltChunks } from '../built-chunks.js'
import { studioPage } from './page.js'

/**
 * Only the studio's own origin: its module (and the web component's, which the dashboard
 * screens load from /sdk/), its calls to the API. Styles are stylesheets the modules adopt; the
 * web component positions cards and chart parts with style attributes (style-src-attr), never
 * a style element or an inline script. No other site may frame the page.
 */
export const STUDIO_CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

interface Bundle {
  readonly text: string
  readonly version: string
}

/**
 * `/studio` (the page) and `/studio/studio.js` (its module, packages/studio): the company's web
 * app over the API (docs/studio.md). The page is never cached; the module is cached as immutable
 * under the content hash the page names (`?v=`), and briefly without it. The chunks the module
 * imports (`/studio/chunk-<hash>.js`: the rollups panel, loaded when its tab opens, and the code
 * it shares with the entry) are named by their content hash, so cached as immutable.
 */
const studio: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app.services
  let bundle: Promise<Bundle> | undefined
  const load = (): Promise<Bundle> => {
    bundle ??= readFile(createRequire(import.meta.url).resolve('@strata/studio'), 'utf8').then((text) => ({
      text,
      version: createHash('sha256').update(text).digest('hex').slice(0, 16),
    }))
    return bundle.catch(() => {
      bundle = undefined
      throw new ApiError('NOT_FOUND', 404, 'The studio is not built: run npm run build')
    })
  }
  const secured = (reply: FastifyReply) =>
    reply
      .header('content-security-policy', STUDIO_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')

  app.get('/studio', { schema: { hide: true } }, async (_request, reply) => {
    const { version } = await load()
    return secured(reply)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(studioPage({ basePath: config.basePath, version }))
  })
  app.get<{ Querystring: { v?: string } }>('/studio/studio.js', { schema: { hide: true } }, async (request, reply) => {
    const { text, version } = await load()
    return secured(reply)
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', request.query.v === version ? 'public, max-age=31536000, immutable' : 'no-cache')
      .send(text)
  })

  serveBuiltChunks(app, { prefix: '/studio', packageName: '@strata/studio', built: 'the studio', headers: secured })
}

export default studio
