import { readFileSync } from 'node:fs'
import type { ParseArgsConfig } from 'node:util'
import type { Client } from './client.js'

/** What every `strata` command is: its help, its flags and what it does with a client. */

export type Options = NonNullable<ParseArgsConfig['options']>
export type Values = Record<string, string | string[] | boolean | undefined>

export interface Command {
  readonly summary: string
  readonly usage: string
  readonly options: Options
  run(values: Values, client: Client): Promise<void>
}

/** A failure the CLI reports as `strata: CODE: message` (the server's code, or its own). */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

/** The CLI's own environment, read in this one place. */
export const cliEnv = {
  url: process.env.STRATA_URL,
  serviceToken: process.env.STRATA_SERVICE_TOKEN,
  dataAppKey: process.env.STRATA_DATA_APP_KEY,
  password: process.env.STRATA_PASSWORD,
}

export function required(values: Values, name: string, fallback?: string): string {
  const value = values[name]
  if (typeof value === 'string' && value !== '') return value
  if (fallback) return fallback
  throw new CliError('USAGE_ERROR', `--${name} is required`)
}

/** A flag's value when given (a repeated flag keeps its last value). */
export function optional(values: Values, name: string): string | undefined {
  const value = values[name]
  if (Array.isArray(value)) return value.at(-1)
  return typeof value === 'string' ? value : undefined
}

export function integer(values: Values, name: string): number | undefined {
  const raw = values[name]
  if (raw === undefined) return undefined
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw new CliError('USAGE_ERROR', `--${name} must be a number`)
  return Number(raw)
}

/** The flag of the commands that call with the service token. */
export const TOKEN = { 'service-token': { type: 'string' } } as const

/** The flag of the commands that call with a data app's key. */
export const KEY = { 'data-app-key': { type: 'string' } } as const

/** The service token: --service-token, else STRATA_SERVICE_TOKEN. */
export const serviceToken = (values: Values): string => required(values, 'service-token', cliEnv.serviceToken)

/** The data app key: --data-app-key, else STRATA_DATA_APP_KEY. */
export const dataAppKey = (values: Values): string => required(values, 'data-app-key', cliEnv.dataAppKey)

/** Sets `body[field]` to each flag's value that was given (`fields`: flag → field), leaving the others as they are. */
export function putGiven(body: Record<string, unknown>, values: Values, fields: Record<string, string>): void {
  for (const [flag, field] of Object.entries(fields)) {
    const value = optional(values, flag)
    if (value !== undefined) body[field] = value
  }
}

export const data = (body: Record<string, unknown>): Record<string, unknown> =>
  (body.data ?? {}) as Record<string, unknown>

/** The `data` array of a list response (`[]` when absent). */
export const items = (body: Record<string, unknown>): Record<string, unknown>[] =>
  Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : []

/** A JSON value read from a file. */
function readJson(path: string): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new CliError('FILE_ERROR', `cannot read ${path} (${(err as { code?: string }).code ?? 'error'})`)
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new CliError('FILE_ERROR', `${path} is not valid JSON`)
  }
}

/** A JSON object read from a file (a request body or part of one). */
export function readJsonObject(path: string): Record<string, unknown> {
  const value = readJson(path)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new CliError('FILE_ERROR', `${path} must hold a JSON object`)
  }
  return value as Record<string, unknown>
}

/** A dashboard document (docs/dashboard-document.md), or an export `{ _meta, data }` whose `data` is one. */
export function readDashboardFile(path: string): Record<string, unknown> {
  const document = readJsonObject(path)
  const exported = document as { _meta?: unknown; data?: unknown }
  if (exported._meta !== undefined && exported.data && typeof exported.data === 'object') {
    return exported.data as Record<string, unknown>
  }
  return document
}
