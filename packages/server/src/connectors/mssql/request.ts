/**
 * The pool configuration and the parameterised request the connector sends: pure (no I/O), so
 * they are tested without a SQL Server. Values are bound as `@p0…@pn` inputs with explicit
 * types; mssql sends them through sp_executesql, never spliced into the text.
 */
import sql from 'mssql'
import { BACKSTOP_TIMEOUT_MS, IDLE_TIMEOUT_MS } from '../shared/execution.js'
import { resolveTlsMode, type TlsMode } from '../shared/tls.js'
import type { ConnectorOptions, MssqlCredentials } from '../types.js'
import { encryptedOnlyConnector } from './encryption-guard.js'

/**
 * `isDisableDatabase: true` leaves the database out of the login, so the server uses the login's
 * default database; a tenant database (DATABASE tenancy) is still given explicitly.
 */
export function mssqlConfig(credentials: MssqlCredentials, options: ConnectorOptions, database?: string): sql.config {
  const db = database ?? (credentials.isDisableDatabase ? undefined : credentials.database)
  return {
    server: credentials.server,
    port: credentials.port,
    user: credentials.user,
    password: credentials.password,
    ...(db === undefined ? {} : { database: db }),
    connectionTimeout: options.connectTimeoutMs,
    requestTimeout: BACKSTOP_TIMEOUT_MS, // our own deadline cancels each request first
    pool: { max: options.poolMax, min: 0, idleTimeoutMillis: IDLE_TIMEOUT_MS },
    options: {
      ...tlsOptions(credentials, resolveTlsMode(credentials, 'verify')),
      readOnlyIntent: credentials.readOnlyIntent === true,
      appName: 'strata',
      useUTC: true,
      abortTransactionOnError: true,
    },
  }
}

/**
 * TLS (docs/datasources.md#tls): verify by default (Azure SQL presents a publicly trusted
 * certificate); `required` for a server with a self-signed certificate; the CA and client pair
 * go to the secure context tedious builds. Either way a server that answers it cannot encrypt
 * is refused before the login (encryption-guard.ts).
 */
function tlsOptions(c: MssqlCredentials, mode: TlsMode): NonNullable<sql.config['options']> {
  if (mode === 'off') return { encrypt: false }
  const details = {
    ...(c.tlsCaCertificate === undefined ? {} : { ca: c.tlsCaCertificate }),
    ...(c.tlsClientCertificate === undefined ? {} : { cert: c.tlsClientCertificate }),
    ...(c.tlsClientKey === undefined ? {} : { key: c.tlsClientKey }),
  }
  return {
    encrypt: true,
    trustServerCertificate: mode === 'required',
    ...(Object.keys(details).length === 0 ? {} : { cryptoCredentialsDetails: details }),
    // a server that answers it cannot encrypt gets no login (encryption-guard.ts)
    connector: encryptedOnlyConnector,
  }
}

export interface Input {
  readonly name: string
  readonly type: sql.ISqlType | (() => sql.ISqlType)
  readonly value: unknown
}

const INT32_MIN = -2_147_483_648
const INT32_MAX = 2_147_483_647

/** Params → named, typed inputs: params[i] is `@p<i>`. */
export function inputs(params: readonly unknown[]): Input[] {
  return params.map((value, i) => ({ name: `p${i}`, ...typed(value) }))
}

function typed(value: unknown): Pick<Input, 'type' | 'value'> {
  if (value === null || value === undefined) return { type: sql.NVarChar(sql.MAX), value: null }
  if (typeof value === 'string') return { type: sql.NVarChar(sql.MAX), value }
  if (typeof value === 'boolean') return { type: sql.Bit, value }
  if (typeof value === 'bigint') return { type: sql.BigInt, value: value.toString() }
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX) return { type: sql.Int, value }
    if (Number.isSafeInteger(value)) return { type: sql.BigInt, value }
    return { type: sql.Float, value }
  }
  if (value instanceof Date) return { type: sql.DateTimeOffset(7), value }
  return { type: sql.NVarChar(sql.MAX), value: JSON.stringify(value) }
}

/** A streaming request on `pool` with every input bound. */
export function buildRequest(pool: sql.ConnectionPool, params: readonly unknown[]): sql.Request {
  const request = new sql.Request(pool)
  for (const input of inputs(params)) request.input(input.name, input.type, input.value)
  request.stream = true
  return request
}
