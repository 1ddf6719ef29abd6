import type { FastifyInstance } from 'fastify'
import { ApiError } from '../../errors.js'
import { parseJsonText } from '../../validation/json-text.js'

/**
 * JSON is the only body type. An empty body with a JSON content type reads as no body (some
 * clients send the header on every request); anything else must parse through the shared
 * parser (validation/json-text.ts: depth, validity, no prototype-poisoning key). Its size is
 * bounded before this runs, by Fastify's `bodyLimit` (BODY_LIMIT, 413).
 */
export function installJsonBodyParsing(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body.toString()
    if (text.trim() === '') return done(null, undefined)
    const parsed = parseJsonText(text)
    if ('value' in parsed) return done(null, parsed.value)
    const { kind, problem } = parsed.fault
    const message =
      kind === 'malformed'
        ? 'The body is not valid JSON'
        : kind === 'poisoned'
          ? `The body is not valid JSON here: it ${problem}`
          : `The JSON body ${problem}`
    done(new ApiError('INVALID_REQUEST_BODY', 400, message), undefined)
  })
}
