import type { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { requireServiceToken } from '../../auth/hooks.js'
import { ApiError } from '../../errors.js'
import { FileBody, FileParams, StoredFileResponse } from '../../schemas/datasources.js'
import { docs } from './datasources.docs.js'

/**
 * The files of csv datasources (docs/operations.md#files-of-csv-datasources); service token. Its own encapsulated context:
 * here, and only here, a body of any Content-Type is taken raw, as a stream, never parsed or
 * buffered (the JSON routes keep their parser and BODY_LIMIT).
 */
const datasourceFiles: FastifyPluginAsyncTypebox = async (app) => {
  const { files } = app.services
  requireServiceToken(app)
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload))

  app.put(
    '/api/v2/datasource/files/:datasourceName/:fileName',
    {
      schema: {
        ...docs.uploadDatasourceFile,
        consumes: ['application/octet-stream'],
        params: FileParams,
        body: FileBody,
        response: { 200: StoredFileResponse },
      },
    },
    async (request, reply) => {
      const length = request.headers['content-length']
      try {
        const stored = await files.store(
          request.params.datasourceName,
          request.params.fileName,
          request.body as Readable | undefined,
          length === undefined ? undefined : Number(length),
        )
        return { data: stored, error: null }
      } catch (err) {
        // the rest of a refused body (too long, a file refused mid-way) is not read: end the
        // connection after the answer
        if (err instanceof ApiError && (err.status === 413 || !request.raw.readableEnded)) {
          reply.header('connection', 'close')
        }
        throw err
      }
    },
  )
}

export default datasourceFiles
