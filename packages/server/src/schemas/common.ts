import { Type } from '@fastify/type-provider-typebox'

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  },
  { $id: 'ErrorResponse', description: 'Every failure: `{ error: { code, message } }`' },
)

/**
 * Readable wording of a string `pattern`, keyed by the pattern: a 400 then says
 * `body/domains/0 must be <wording>` instead of quoting the regular expression.
 */
export const PATTERN_WORDING = new Map<string, string>()

/** Registers the wording of `pattern` (see PATTERN_WORDING) and returns the pattern. */
export function worded(pattern: string, wording: string): string {
  PATTERN_WORDING.set(pattern, wording)
  return pattern
}

/** Query-string booleans and numbers are strings (spec convention 4). */
export const BooleanString = Type.Union([Type.Literal('true'), Type.Literal('false')])
export const PageNumberString = Type.String({ pattern: '^[0-9]{1,9}$', description: '1-based page number' })

export const Null = Type.Null()

/** Alphanumeric names (data apps). */
export const AlphanumericName = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9]+$' })
