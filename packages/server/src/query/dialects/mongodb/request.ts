/**
 * The statement a MongoDB "dialect" emits: one aggregation request as JSON text. Bound values
 * are never in the text: each is a `{"$param": i}` object the connector replaces with
 * `params[i]` as a BSON value (in expression positions always inside `$literal`, so a string
 * such as "$field" or "$$ROOT" stays a string). The session time zone is a `{"$session":
 * "timezone"}` object the connector replaces with `ExecuteOptions.timezone` (UTC without one).
 */

/** Any JSON value of a pipeline. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json }

export interface MongoRequest {
  /** The database; absent: the connector's (DATABASE tenancy's) database. */
  readonly database?: string
  readonly collection: string
  readonly pipeline: readonly Json[]
  /** Output names: the pipeline's fields f0, f1 … become these names (in this order). */
  readonly columns?: readonly string[]
}

export const PARAM_KEY = '$param'
export const SESSION_KEY = '$session'
/** Where the session time zone goes (an argument of $dateTrunc / $dateToString). */
export const SESSION_TIMEZONE: Json = { [SESSION_KEY]: 'timezone' }

/** The output field of select item `i` (user aliases never become field names). */
export const outputField = (i: number): string => `f${i}`
