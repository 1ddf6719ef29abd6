/**
 * The hosted MongoDB variants against the stand-in (src/connectors/mongodb/standin): a `mongodb+srv://`
 * connection string as MongoDB Atlas gives it, resolved through a stand-in DNS server
 * (src/connectors/mongodb/standin/dns.ts: the SRV and TXT records the driver asks for), and users created
 * in a database other than admin (authSource). The stand-in's SCRAM check looks the user up in
 * the database the client authenticates to, as MongoDB does.
 */
import dns from 'node:dns'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../../errors.js'
import { validateCredentials } from '../credentials/validate.js'
import { createConnector } from '../registry.js'
import type { Connector, ExecuteOptions, MongodbCredentials } from '../types.js'
import { type DnsStandIn, startDnsStandIn } from './standin/dns.js'
import { MongoStandIn } from './standin/server.js'

const BASE: ExecuteOptions = { params: [], timeoutMs: 10_000, maxRows: 1000 }
const OPTIONS = { connectTimeoutMs: 3000, poolMax: 2 }
const request = JSON.stringify({ database: 'analytics', collection: 'events', pipeline: [{ $sort: { n: 1 } }] })

let standIn: MongoStandIn
let port: number

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ApiError)
  return error as ApiError
}

async function rows(credentials: MongodbCredentials): Promise<readonly unknown[]> {
  const connector: Connector = createConnector('mongodb', validateCredentials('mongodb', credentials), OPTIONS)
  try {
    await connector.test()
    return (await connector.execute(request, BASE)).rows
  } finally {
    await connector.close()
  }
}

beforeAll(async () => {
  standIn = new MongoStandIn({
    users: { root: 'root-pass' },
    databaseUsers: { analytics: { reporter: 'rep-pass' } },
  })
  port = await standIn.start()
  standIn.insert('analytics', 'events', [{ n: 1 }, { n: 2 }])
})
afterAll(() => standIn?.stop())

describe('authSource: the database the user was created in', () => {
  it('a user of analytics authenticates with authSource analytics', async () => {
    const base = { name: 'm', host: '127.0.0.1', port, user: 'reporter', password: 'rep-pass' }
    expect(await rows({ ...base, authSource: 'analytics' })).toEqual([{ n: 1 }, { n: 2 }])
  })

  it('the same user against admin (the default) is refused', async () => {
    const base = { name: 'm', host: '127.0.0.1', port, user: 'reporter', password: 'rep-pass' }
    const e = await failure(rows(base))
    expect(e.code).toBe('DATASOURCE_CONNECTION_ERROR')
    expect(e.message).toMatch(/[Aa]uthentication failed/)
  })

  it('a connection string with authSource in it', async () => {
    const uri = `mongodb://reporter:rep-pass@127.0.0.1:${port}/?authSource=analytics`
    expect(await rows({ name: 'm', connectionString: uri })).toHaveLength(2)
  })
})

describe('mongodb+srv:// (seed list from DNS SRV and TXT records)', () => {
  let server: DnsStandIn
  let previous: { callback: string[]; promises: string[] }
  // The SRV target must share the parent domain of the SRV name (the driver checks it): an IPv4
  // literal whose last labels are that domain lets the OS resolve the target without DNS.
  const SRV_HOST = 'cluster0.0.0.1'

  beforeAll(async () => {
    // the stand-in's port is known by now (the file's beforeAll ran first)
    server = await startDnsStandIn({
      srv: { [`_mongodb._tcp.${SRV_HOST}`]: [{ port, target: '127.0.0.1' }] },
      txt: { [SRV_HOST]: ['authSource=analytics'] },
    })
    previous = { callback: dns.getServers(), promises: dns.promises.getServers() }
    dns.setServers([server.server])
    dns.promises.setServers([server.server])
  })
  afterAll(async () => {
    dns.setServers(previous.callback)
    dns.promises.setServers(previous.promises)
    await server?.close()
  })

  it('connects through the SRV record and takes authSource from the TXT record', async () => {
    // tls=false: the stand-in speaks plain TCP (+srv turns TLS on by default, as Atlas needs)
    const uri = `mongodb+srv://reporter:rep-pass@${SRV_HOST}/?tls=false`
    expect(await rows({ name: 'm', connectionString: uri })).toEqual([{ n: 1 }, { n: 2 }])
    expect(server.questions).toEqual(expect.arrayContaining([`SRV _mongodb._tcp.${SRV_HOST}`, `TXT ${SRV_HOST}`]))
  })

  it('authSource in the string takes precedence over the TXT record (admin: refused)', async () => {
    const uri = `mongodb+srv://reporter:rep-pass@${SRV_HOST}/?tls=false&authSource=admin`
    expect((await failure(rows({ name: 'm', connectionString: uri }))).code).toBe('DATASOURCE_CONNECTION_ERROR')
  })
})

describe('validation of the MongoDB credentials', () => {
  const invalid = (credentials: unknown): ApiError => {
    try {
      validateCredentials('mongodb', credentials)
    } catch (e) {
      return e as ApiError
    }
    throw new Error('accepted')
  }

  it('a connection string the driver refuses is 400 naming the field, never its password', () => {
    const e = invalid({ name: 'm', connectionString: 'mongodb://u:hunter2-secret@h/?replicaSet=a&tls=maybe' })
    expect(e.status).toBe(400)
    expect(e.message).toMatch(/^credentials\.connectionString /)
    expect(e.message).not.toContain('hunter2-secret')
    expect(invalid({ name: 'm', connectionString: 'postgres://h' }).message).toMatch(
      /credentials\.connectionString must start with mongodb:\/\/ or mongodb\+srv:\/\//,
    )
    expect(invalid({ name: 'm', connectionString: 'mongodb+srv://a.b.c:27017' }).message).toMatch(
      /credentials\.connectionString .*port/i,
    )
  })

  it("a connection string naming a server file or the server's own credentials is refused", () => {
    expect(invalid({ name: 'm', connectionString: 'mongodb://h/?tls=true&tlsCAFile=/etc/shadow' }).message).toMatch(
      /credentials\.connectionString must not name a file of this server \(tlsCAFile\)/,
    )
    expect(invalid({ name: 'm', connectionString: 'mongodb://h/?authMechanism=MONGODB-AWS' }).message).toMatch(
      /credentials\.connectionString must not use authMechanism MONGODB-AWS/,
    )
    expect(
      validateCredentials('mongodb', { name: 'm', connectionString: 'mongodb://u:p@h/?authMechanism=SCRAM-SHA-256' }),
    ).toBeTruthy()
  })

  it('host and port are refused beside a connection string, required without one', () => {
    expect(invalid({ name: 'm', connectionString: 'mongodb://h', host: 'h' }).message).toMatch(
      /credentials\.host is not allowed beside connectionString/,
    )
    expect(invalid({ name: 'm', host: 'h', user: 'u' }).message).toMatch(
      /credentials\.port is required unless connectionString is given/,
    )
    expect(
      validateCredentials('mongodb', { name: 'm', connectionString: 'mongodb+srv://c.example.net/?authSource=x' }),
    ).toBeTruthy()
  })
})
