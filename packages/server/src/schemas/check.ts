import type { Static, TSchema } from '@fastify/type-provider-typebox'
import { Value } from 'typebox/value'
import { type ApiError, badRequest } from '../errors.js'

/**
 * Validates a value against a schema where Fastify's route validation cannot (a body whose
 * shape depends on the request, a nested object with its own error code), naming the field.
 */
export function check<T extends TSchema>(
  schema: T,
  value: unknown,
  path: string,
  fail: (message: string) => ApiError = badRequest,
): Static<T> {
  if (Value.Check(schema, value)) return value as Static<T>
  const first = Value.Errors(schema, value)[0]
  const where = `${path}${(first?.instancePath ?? '').replaceAll('/', '.')}`
  throw fail(
    first?.keyword === 'boolean' ? `${where} is not an allowed field` : `${where} ${first?.message ?? 'is invalid'}`,
  )
}
