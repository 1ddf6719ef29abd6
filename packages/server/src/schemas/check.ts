import type { Static, TSchema } from '@fastify/type-provider-typebox'
import { Value } from 'typebox/value'
import { type ApiError, badRequest } from '../errors.js'
import { fieldsError } from '../validation/fields.js'
import { schemaProblems, withContext } from '../validation/schema-errors.js'

/**
 * Validates a value against a schema where Fastify's route validation cannot (a body whose
 * shape depends on the request, a nested object with its own error code). `root` is where the
 * value sits in the body ('' for the body itself, `accessSettings` for that field): the 400
 * names fields exactly as route validation does (validation/fields.ts), with
 * `details.fields`.
 */
export function check<T extends TSchema>(
  schema: T,
  value: unknown,
  root: string,
  fail: (message: string, details: Record<string, unknown>) => ApiError = badRequest,
): Static<T> {
  if (Value.Check(schema, value)) return value as Static<T>
  const errors = withContext(Value.Errors(schema, value), schema, value)
  throw fieldsError(schemaProblems(errors, 'body', root), fail)
}
