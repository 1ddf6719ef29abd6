/**
 * The messages between the server and its engine process (advanced serialization: bigint,
 * Date, Map and nested values cross as they are). A request names an operation (`duckdb.query`)
 * and its arguments; the answer carries the value or the error. Each message is an array: the
 * requests (or answers) of one turn of the sender's event loop (outbox.ts). An ApiError crosses
 * whole (code, status, message, details); any other error as its message only, which is what the
 * connectors' error translation reads (`INTERRUPT Error: …`).
 */
import { ApiError, type ErrorCode } from '../../errors.js'

export interface Request {
  readonly id: number
  readonly op: string
  readonly args: unknown
}

export interface WireError {
  readonly message: string
  readonly api?: {
    readonly code: ErrorCode
    readonly status: number
    readonly details?: Record<string, unknown>
  }
}

export type Response =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: WireError }

/** The child's first message: its engines are loaded and it takes requests. */
export interface Ready {
  readonly ready: true
}

/** One operation of the engine process: its arguments in, its value out. */
export type Handler = (args: never) => Promise<unknown>

export function toWire(err: unknown): WireError {
  if (err instanceof ApiError) {
    return {
      message: err.message,
      api: { code: err.code, status: err.status, ...(err.details ? { details: err.details } : {}) },
    }
  }
  return { message: err instanceof Error ? err.message : String(err) }
}

export function fromWire(wire: WireError): Error {
  if (wire.api) return new ApiError(wire.api.code, wire.api.status, wire.message, wire.api.details)
  return new Error(wire.message)
}
