/** Driver errors → typed ApiErrors, for the shapes a live server here cannot produce on demand. */
import { describe, expect, it } from 'vitest'
import { cleanMessage, serverCode, translateClickhouseError } from './clickhouse/errors.js'
import { networkReason, redact } from './errors.js'
import { translateMysqlError } from './mysql/errors.js'
import { translatePgError } from './postgres/errors.js'

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code })

describe('connector error translation', () => {
  it('socket errors name the reason and the address, not a stack', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5'), {
      code: 'ECONNREFUSED',
      address: '127.0.0.1',
      port: 5,
    })
    expect(networkReason(refused)).toBe('connection refused (127.0.0.1:5)')
    expect(networkReason(Object.assign(new Error('x'), { code: 'ENOTFOUND', hostname: 'db.invalid' }))).toBe(
      'host not found (db.invalid)',
    )
    expect(networkReason(new Error('other'))).toBeUndefined()
  })

  it('secrets are redacted from messages (short ones are left alone)', () => {
    expect(redact('auth failed for hunter22 at host', ['hunter22'])).toBe('auth failed for *** at host')
    expect(redact('a b c', ['a', undefined])).toBe('a b c')
  })

  it('postgres: 28P01 and 3D000 are connection errors; 57014 a timeout; others QUERY_ERROR with cause', () => {
    const password = pgError('28P01', 'password authentication failed for user "app"')
    const e1 = translatePgError(password, { secrets: ['pw'] })
    expect([e1.code, e1.status, e1.cause]).toEqual(['DATASOURCE_CONNECTION_ERROR', 400, password])
    expect(e1.message).toBe('Could not connect to the datasource: password authentication failed for user "app"')
    expect(translatePgError(pgError('3D000', 'database "x" does not exist'), { secrets: [] }).code).toBe(
      'DATASOURCE_CONNECTION_ERROR',
    )
    expect(
      translatePgError(pgError('57014', 'canceling statement due to statement timeout'), {
        timeoutMs: 500,
        secrets: [],
      }).code,
    ).toBe('QUERY_TIMEOUT')
    const syntax = translatePgError(pgError('42601', 'syntax error at or near "selec"'), { secrets: [] })
    expect([syntax.code, syntax.message]).toEqual(['QUERY_ERROR', 'The query failed: syntax error at or near "selec"'])
    expect(translatePgError(new Error('timeout exceeded when trying to connect'), { secrets: [] }).code).toBe(
      'DATASOURCE_CONNECTION_ERROR',
    )
  })

  it('mysql: access denied is a connection error; statement time limits are timeouts', () => {
    const denied = Object.assign(new Error("Access denied for user 'u'@'h' (using password: YES)"), {
      errno: 1045,
      code: 'ER_ACCESS_DENIED_ERROR',
    })
    expect(translateMysqlError(denied, { secrets: [] }).code).toBe('DATASOURCE_CONNECTION_ERROR')
    const mariadb = Object.assign(new Error('Query execution was interrupted (max_statement_time exceeded)'), {
      errno: 1969,
    })
    expect(translateMysqlError(mariadb, { timeoutMs: 100, secrets: [] }).code).toBe('QUERY_TIMEOUT')
    const mysql = Object.assign(new Error('maximum statement execution time exceeded'), { errno: 3024 })
    expect(translateMysqlError(mysql, { timeoutMs: 100, secrets: [] }).code).toBe('QUERY_TIMEOUT')
  })

  it('clickhouse: codes from 18.x text and from newer (TYPE) messages; messages cleaned', () => {
    const old = new Error(
      'Code: 193, e.displayText() = DB::Exception: Wrong password for user default, e.what() = DB::Exception',
    )
    expect(serverCode(old)).toBe(193)
    expect(cleanMessage(old.message)).toBe('Wrong password for user default')
    expect(translateClickhouseError(old, { secrets: [] }).code).toBe('DATASOURCE_CONNECTION_ERROR')
    const modern = Object.assign(new Error('Timeout exceeded: elapsed 1.0 seconds, maximum: 1'), {
      code: '159',
      type: 'TIMEOUT_EXCEEDED',
    })
    expect(translateClickhouseError(modern, { timeoutMs: 1000, secrets: [] }).code).toBe('QUERY_TIMEOUT')
    const newer =
      'Code: 60. DB::Exception: Table default.x does not exist. (UNKNOWN_TABLE) (version 24.3.1.2672 (official build))'
    expect(cleanMessage(newer)).toBe('Table default.x does not exist. (UNKNOWN_TABLE)')
  })
})
