import { type ApiError, badRequest } from '../errors.js'

/**
 * The value of a field given under either of its two names (ours and the hosted service's).
 * Both names with the same value are one field; with different values the request is a 400
 * naming both (which one was meant cannot be known), through `fail` when the route answers
 * another code than INVALID_REQUEST_BODY.
 */
export function either<O extends object, A extends keyof O & string, B extends keyof O & string>(
  o: O,
  ours: A,
  theirs: B,
  path: string,
  fail: (message: string) => ApiError = badRequest,
): O[A] | O[B] | undefined {
  const a = o[ours]
  const b = o[theirs]
  if (a !== undefined && b !== undefined && JSON.stringify(a) !== JSON.stringify(b)) {
    throw fail(`${path}: ${ours} and ${theirs} are the same field with different values; give one of them`)
  }
  return a !== undefined ? a : b
}
