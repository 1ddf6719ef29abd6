/**
 * The connection failures every network connector answers alike, for its live tests: each set
 * of bad credentials is DATASOURCE_CONNECTION_ERROR naming why, within the connect timeout and
 * never showing the password; a host that accepts and never answers fails the same way once
 * the connect timeout has passed.
 */
import { expect } from 'vitest'
import type { Connector } from '../../src/connectors/types.js'
import { caught, silentServer } from '../fixtures/net.js'
import { expectCode } from './expect-error.js'

/** `cases`: credentials and what the message must say; `password` must not appear in it. */
export async function expectConnectionFailures<C>(
  connect: (credentials: C) => Connector,
  cases: readonly (readonly [C, RegExp])[],
  connectTimeoutMs: number,
  password = 'wrong-password',
): Promise<void> {
  for (const [credentials, reason] of cases) {
    const c = connect(credentials)
    const { error, ms } = await caught(c.test())
    const e = expectCode(error, 'DATASOURCE_CONNECTION_ERROR')
    expect(e.message).toMatch(reason)
    expect(e.message).not.toContain(password)
    expect(ms).toBeLessThan(connectTimeoutMs + 500)
    await c.close()
  }
}

/** `connect(port)` with a connect timeout of 800 ms, against a server that never answers: fails within 2 s. */
export async function expectSilentHostFails(
  connect: (port: number, connectTimeoutMs: number) => Connector,
): Promise<void> {
  const silent = await silentServer()
  try {
    const c = connect(silent.port, 800)
    const { error, ms } = await caught(c.test())
    expectCode(error, 'DATASOURCE_CONNECTION_ERROR')
    expect(ms).toBeLessThan(2000)
    await c.close()
  } finally {
    await silent.close()
  }
}
