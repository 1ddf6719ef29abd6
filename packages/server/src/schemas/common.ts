import { Type } from '@fastify/type-provider-typebox'
import { ERROR_CODES, type ErrorCode } from '../errors.js'
import { worded } from '../validation/schema-errors.js'

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      // the catalogue's codes as an enum, so that a client generated from /openapi.json types
      // `code` as their union (packages/node); serialised as a plain string
      code: Type.Unsafe<ErrorCode>({ type: 'string', enum: [...ERROR_CODES] }),
      message: Type.String(),
      details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  },
  { $id: 'ErrorResponse', description: 'Every failure: `{ error: { code, message } }`' },
)

// The wording of string patterns in a 400 (`worded(pattern, 'host[:port]')`) lives with the
// rest of the validation messages.
export { worded }

/** Query-string booleans and numbers are strings (docs/api.md#conventions). */
export const BooleanString = Type.Union([Type.Literal('true'), Type.Literal('false')])
export const PageNumberString = Type.String({
  pattern: worded('^[0-9]{1,9}$', 'a page number (1, 2, …)'),
  description: '1-based page number',
})

export const Null = Type.Null()

/** Alphanumeric names (data apps). */
export const AlphanumericName = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9]+$' })
