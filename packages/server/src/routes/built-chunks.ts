import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { ApiError } from '../errors.js'

/** A chunk of a built bundle (`chunk-<hash>.js`): nothing else is served, so no path can climb out. */
const CHUNK = /^chunk-[A-Za-z0-9_-]{4,64}\.js$/

export interface BuiltChunks {
  /** The URL folder, `/sdk` or `/studio`: the route is `<prefix>/:file`. */
  readonly prefix: string
  /** The package whose main module the chunks sit beside (its `dist/`). */
  readonly packageName: string
  /** What to build when a chunk is missing, for the 404's message ("the web component"). */
  readonly built: string
  /** The route's own headers (CORS, CSP) on top of the type and the cache. */
  readonly headers?: (reply: FastifyReply) => FastifyReply
}

/**
 * `GET <prefix>/:file`: the hashed chunks a bundle's entry imports, read once and kept. A chunk's
 * name is its content hash, so it is cached as immutable; any other name is a 404.
 */
export function serveBuiltChunks(app: Parameters<FastifyPluginAsyncTypebox>[0], options: BuiltChunks): void {
  const chunks = new Map<string, Promise<string>>()
  const folder = `${options.prefix}/`
  app.get(
    `${options.prefix}/:file`,
    {
      schema: {
        hide: true,
        params: Type.Object({ file: Type.String({ maxLength: 100 }) }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const { file } = request.params
      if (!CHUNK.test(file)) throw new ApiError('NOT_FOUND', 404, `No such file in ${folder}`)
      let text = chunks.get(file)
      if (!text) {
        text = readFile(join(dirname(createRequire(import.meta.url).resolve(options.packageName)), file), 'utf8')
        chunks.set(file, text)
      }
      const body = await text.catch(() => {
        chunks.delete(file)
        throw new ApiError('NOT_FOUND', 404, `No such file in ${folder} (is ${options.built} built? npm run build)`)
      })
      return (options.headers?.(reply) ?? reply)
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(body)
    },
  )
}
