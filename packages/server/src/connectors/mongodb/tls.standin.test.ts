/**
 * MongoDB over TLS with a certificate from a private CA made for this run: a TLS front
 * (test/standins/tls-front.ts) terminates TLS before the MongoDB stand-in, as a mongod with
 * `net.tls.mode: requireTLS` does. A connection string cannot name the CA (a file path of this
 * server is refused), so `tlsCaCertificate` carries it and turns TLS on; `tls=true` in the
 * string verifies against the public roots; `tlsAllowInvalidCertificates=true` encrypts
 * without checking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { createPrivateCa, type PrivateCa } from '../../../test/standins/private-ca.js'
import { startTlsFront, type TlsFront } from '../../../test/standins/tls-front.js'
import { ApiError } from '../../errors.js'
import { validateCredentials } from '../credentials/validate.js'
import { createConnector } from '../registry.js'
import type { MongodbCredentials } from '../types.js'
import { MongoStandIn } from './standin/server.js'

const OPTIONS = { connectTimeoutMs: 3000, poolMax: 2 }
const request = JSON.stringify({ database: 'analytics', collection: 'events', pipeline: [{ $sort: { n: 1 } }] })
const BASE = { params: [], timeoutMs: 5000, maxRows: 100 }

describe('mongodb over TLS, private CA (stand-in behind a TLS front)', () => {
  let standIn: MongoStandIn
  let ca: PrivateCa
  let front: TlsFront
  beforeAll(async () => {
    standIn = new MongoStandIn({ users: { root: 'root-pass' } })
    const port = await standIn.start()
    standIn.insert('analytics', 'events', [{ n: 1 }, { n: 2 }])
    ca = createPrivateCa()
    front = await startTlsFront(ca.issueServer('mongodb', ['IP:127.0.0.1']), port)
  })
  afterAll(async () => {
    await front?.close()
    standIn?.stop()
    ca?.close()
  })

  const rows = async (credentials: Omit<MongodbCredentials, 'name'>) => {
    const connector = createConnector('mongodb', validateCredentials('mongodb', { name: 'm', ...credentials }), OPTIONS)
    try {
      await connector.test()
      return (await connector.execute(request, BASE)).rows
    } finally {
      await connector.close()
    }
  }
  const failure = async (credentials: Omit<MongodbCredentials, 'name'>) => {
    const { error } = await caught(rows(credentials))
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).code, (error as Error).message).toBe('DATASOURCE_CONNECTION_ERROR')
    expect((error as ApiError).status).toBe(400)
    return error as ApiError
  }
  const server = () => ({ host: '127.0.0.1', port: front.port, user: 'root', password: 'root-pass' })

  it('tlsCaCertificate turns TLS on and verifies: host and port, and beside a connection string', async () => {
    let before = front.handshakes
    expect(await rows({ ...server(), tlsCaCertificate: ca.cert })).toEqual([{ n: 1 }, { n: 2 }])
    expect(front.handshakes).toBeGreaterThan(before)
    before = front.handshakes
    const uri = `mongodb://root:root-pass@127.0.0.1:${front.port}/?tls=true&directConnection=true`
    expect(await rows({ connectionString: uri, tlsCaCertificate: ca.cert })).toEqual([{ n: 1 }, { n: 2 }])
    expect(front.handshakes).toBeGreaterThan(before)
  })

  it('tls=true without the CA fails verification, naming the reason', async () => {
    const uri = `mongodb://root:root-pass@127.0.0.1:${front.port}/?tls=true&directConnection=true`
    expect((await failure({ connectionString: uri })).message).toMatch(
      /TLS certificate verification failed \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/,
    )
  })

  it('a CA that did not sign the certificate, or a host it does not name, fails verification', async () => {
    const other = createPrivateCa('Another CA')
    try {
      expect((await failure({ ...server(), tlsCaCertificate: other.cert })).message).toMatch(
        /TLS certificate verification failed/,
      )
    } finally {
      other.close()
    }
    expect((await failure({ ...server(), host: 'localhost', tlsCaCertificate: ca.cert })).message).toMatch(
      /TLS certificate verification failed \(ERR_TLS_CERT_ALTNAME_INVALID\)/,
    )
  })

  it('tlsAllowInvalidCertificates=true encrypts without checking the certificate', async () => {
    const before = front.handshakes
    const uri = `mongodb://root:root-pass@127.0.0.1:${front.port}/?tls=true&tlsAllowInvalidCertificates=true&directConnection=true`
    expect(await rows({ connectionString: uri })).toEqual([{ n: 1 }, { n: 2 }])
    expect(front.handshakes).toBeGreaterThan(before)
  })

  it('a tlsCaCertificate that is not PEM is refused when saved', () => {
    expect(() => validateCredentials('mongodb', { name: 'm', ...server(), tlsCaCertificate: 'nope' })).toThrow(
      /tlsCaCertificate/,
    )
  })
})
