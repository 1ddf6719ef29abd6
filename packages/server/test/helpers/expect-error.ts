import { expect } from 'vitest'
import { ApiError } from '../../src/errors.js'

interface Response {
  readonly statusCode: number
  readonly body: string
  json(): unknown
}

/** Asserts the API error shape (docs/errors.md) with this status and code (and a message matching `message`). */
export function expectError(res: Response, status: number, code: string, message?: RegExp): void {
  const body = res.json() as { error?: { code?: string; message?: string } }
  expect([res.statusCode, body.error?.code], res.body).toEqual([status, code])
  if (message) expect(body.error?.message).toMatch(message)
}

/** Asserts that a thrown value is an ApiError with this code, and returns it (its message for the failure's text). */
export function expectCode(error: unknown, code: string): ApiError {
  expect(error).toBeInstanceOf(ApiError)
  expect((error as ApiError).code, (error as Error).message).toBe(code)
  return error as ApiError
}
