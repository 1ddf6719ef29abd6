import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../../errors.js'
import { isStoreUnavailable } from '../../store/store.js'
import { fieldsError, locationOf } from '../../validation/fields.js'
import { type SchemaError, schemaProblems, withAjvContext } from '../../validation/schema-errors.js'

/**
 * Maps any thrown value to an ApiError; the only place errors become HTTP. `request`: the one
 * that failed, whose route schema and values complete a validation failure.
 */
export function toApiError(err: unknown, request?: FastifyRequest): ApiError {
  if (err instanceof ApiError) return err
  const e = err as Partial<FastifyError> & { validation?: unknown }
  if (e.validation) return validationError(e, request)
  switch (e.code) {
    // raised by the router before any route or hook runs (see `frameworkErrors` in app.ts)
    case 'FST_ERR_BAD_URL':
      return new ApiError('INVALID_REQUEST_BODY', 400, 'The URL is malformed (an invalid percent-escape)')
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError('INVALID_REQUEST_BODY', 400, 'A path parameter is longer than the server accepts')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', 413, 'The request body is larger than the server accepts')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(
        'UNSUPPORTED_MEDIA_TYPE',
        415,
        'A request body must be sent with Content-Type: application/json',
      )
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('INVALID_REQUEST_BODY', 400, `The body is not valid JSON: ${e.message ?? ''}`.trim())
  }
  if (isStoreUnavailable(err)) {
    return new ApiError('SERVICE_UNAVAILABLE', 503, 'The metadata store is unavailable; retry shortly', undefined, {
      cause: err,
    })
  }
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500
  if (status >= 400 && status < 500) {
    // JSON parse errors, prototype poisoning, bad URL encoding …: the client's fault.
    return new ApiError('INVALID_REQUEST_BODY', 400, e.message ?? 'The request is malformed')
  }
  return new ApiError('INTERNAL_SERVER_ERROR', 500, 'The server failed to handle this request', undefined, {
    cause: err,
  })
}

/**
 * A failed route validation (ajv): the field named as everywhere else (validation/fields.ts),
 * every missing or undeclared field of the failing object at once (found from the route's
 * schema and the request's value), a close declared name suggested, the values of an enum
 * listed; `details.fields` holds the same as a list.
 */
function validationError(
  e: Partial<FastifyError> & { validationContext?: string },
  request?: FastifyRequest,
): ApiError {
  const errors = Array.isArray(e.validation) ? (e.validation as SchemaError[]) : []
  if (errors.length === 0)
    return new ApiError('INVALID_REQUEST_BODY', 400, e.message ?? 'The request failed validation')
  const context = e.validationContext
  const schemas = request?.routeOptions.schema as Record<string, unknown> | undefined
  const value =
    context === 'body'
      ? request?.body
      : context === 'querystring'
        ? request?.query
        : context === 'params'
          ? request?.params
          : request?.headers
  const resolved = context ? withAjvContext(errors, schemas?.[context], value) : errors
  return fieldsError(schemaProblems(resolved, locationOf(context)))
}

/** Answers any thrown value as `{ error: { code, message } }`; a 500 is logged, never detailed. */
export function sendError(err: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiError = toApiError(err, request)
  if (apiError.code === 'INTERNAL_SERVER_ERROR') request.log.error({ err }, 'request failed')
  else if (apiError.status === 503 && apiError.cause) request.log.warn({ err }, 'metadata store unavailable')
  // an upstream (the AI provider) failed: its message names it and at most a status, never a key
  else if (apiError.status === 502)
    request.log.warn({ code: apiError.code, message: apiError.message }, 'upstream failed')
  const body: { code: string; message: string; details?: Record<string, unknown> } = {
    code: apiError.code,
    message: apiError.message,
  }
  if (apiError.details) body.details = apiError.details
  return reply.status(apiError.status).send({ error: body })
}

/** Every failure answers `{ error: { code, message } }`; never HTML, never a stack. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => sendError(err, request, reply))
  app.setNotFoundHandler(notFound)
}

/** The 404 of an unknown route (also the embed runtime's own, so that its 404s carry CORS). */
export function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0] ?? request.url
  return reply
    .status(404)
    .send({ error: { code: 'NOT_FOUND', message: `No route ${request.method} ${path.slice(0, 200)}` } })
}

/**
 * Bytes that are not HTTP (a broken request line, smuggled lengths, headers over the limit, a
 * TLS handshake on the plain port …) never reach a route: Node's parser refuses them. Answer
 * those in the error shape too, then close the connection (`clientErrorHandler` in app.ts).
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const [status, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are larger than the server accepts']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request was not received in time']
        : [400, 'The request is not valid HTTP']
  const body = JSON.stringify({ error: { code: 'INVALID_REQUEST_BODY', message } })
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy(err)
}
