/**
 * The frame of a connector's TLS tests against a real database that requires TLS: a private CA
 * made for the run, a second CA that signed nothing the server shows, and the server started
 * with a certificate that names 127.0.0.1 only (so `localhost` reaches it under a name it does
 * not carry); all removed after the file. And the one way a refused connection must fail.
 */
import { afterAll, beforeAll, expect } from 'vitest'
import type { ApiError } from '../../src/errors.js'
import { createPrivateCa, type IssuedCertificate, type PrivateCa } from '../standins/private-ca.js'
import { expectCode } from './expect-error.js'

export interface TlsServerRun<S> {
  readonly ca: PrivateCa
  readonly otherCa: PrivateCa
  readonly server: S
}

/** Registers the CAs and the server for the enclosing describe; read the fields inside tests. */
export function tlsServerRun<S extends { stop(): unknown }>(
  certificateName: string,
  start: (ca: PrivateCa, certificate: IssuedCertificate) => Promise<S>,
  startTimeoutMs: number,
): TlsServerRun<S> {
  let ca: PrivateCa | undefined
  let otherCa: PrivateCa | undefined
  let server: S | undefined
  beforeAll(async () => {
    ca = createPrivateCa()
    otherCa = createPrivateCa('Another CA')
    server = await start(ca, ca.issueServer(certificateName, ['IP:127.0.0.1']))
  }, startTimeoutMs)
  afterAll(async () => {
    await server?.stop()
    ca?.close()
    otherCa?.close()
  })
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the TLS server is not started (read it inside a test)')
    return value
  }
  return {
    get ca() {
      return started(ca)
    },
    get otherCa() {
      return started(otherCa)
    },
    get server() {
      return started(server)
    },
  }
}

/** A connection attempt that must be refused: 400 DATASOURCE_CONNECTION_ERROR, returned for its message. */
export async function connectionFailure(attempt: Promise<unknown>): Promise<ApiError> {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  )
  const api = expectCode(error, 'DATASOURCE_CONNECTION_ERROR')
  expect(api.status).toBe(400)
  return api
}
