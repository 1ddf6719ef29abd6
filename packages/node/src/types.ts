import type { FetchResponse } from 'openapi-fetch'
import type { components, operations } from './generated/openapi.js'

/**
 * The shapes of each operation, by its operationId in the OpenAPI document: what a method of
 * the client takes and answers. `RequestBody<'createGuestToken'>` is the mint's body.
 */
export type OperationId = keyof operations

/** The JSON body an operation takes. */
export type RequestBody<O extends OperationId> = operations[O] extends {
  requestBody?: { content: { 'application/json': infer B } }
}
  ? B
  : never

/** The query-string parameters an operation takes (booleans and numbers are strings, as on the wire). */
export type QueryParams<O extends OperationId> = operations[O] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never

/**
 * The JSON body of an operation's 200 answer, as openapi-fetch reads it (it leaves out the
 * fields typed `null`: the `error: null` of a success, which carries nothing).
 */
export type ResponseBody<O extends OperationId> = NonNullable<
  FetchResponse<operations[O], unknown, `${string}/${string}`>['data']
>

/** A dashboard as export answers and import takes it. */
export type DashboardDocument = components['schemas']['DashboardDocument']
