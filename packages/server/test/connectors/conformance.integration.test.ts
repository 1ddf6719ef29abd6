/**
 * One conformance suite for every registered connector: the same cases, through the registry
 * (createConnector, lazy driver loading included), against a real server wherever one runs here
 * (fixtures/). A type registered without a fixture fails the first test, so a connector is held
 * to these cases the day it is registered. Cases a type cannot run here are listed as skipped
 * with the reason; under CI=true a fixture's service must be up.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ValidCredentials } from '../../src/connectors/credentials/validate.js'
import { capabilitiesOf, createConnector, type ParameterStyle } from '../../src/connectors/registry.js'
import {
  type Connector,
  type ConnectorOptions,
  DATASOURCE_TYPES,
  type ExecuteOptions,
} from '../../src/connectors/types.js'
import { ApiError } from '../../src/errors.js'
import { caught, closedPort, silentServer } from '../fixtures/net.js'
import { requireService } from '../helpers/services.js'
import { FIXTURES, VARIANTS } from './fixtures/index.js'
import {
  CASES,
  type CaseName,
  COLUMNS,
  type Fixture,
  type Prepared,
  SERVERLESS_CASES,
  TENANT_LABEL,
  ZONES,
} from './fixtures/types.js'

const OPTIONS: ConnectorOptions = { connectTimeoutMs: 1500, poolMax: 4 }
const BASE: ExecuteOptions = { params: [], timeoutMs: 10_000, maxRows: 1000 }

/** Returned as data, never as SQL: quotes, comments, backslashes, placeholders, NUL-free unicode. */
const HOSTILE = [
  "'; drop table conformance; --",
  `it's "quoted" \\ with a \\' backslash`,
  '$1 ? {p0:String} @p0 :name',
  'ünïcødé ✓ 𝄞 中文 — ok',
]

/** Placeholder `i` in each parameter style, for a string or an integer value. */
function placeholder(style: ParameterStyle, i: number, type: 'string' | 'integer' = 'string'): string {
  switch (style) {
    case '$n':
      return `CAST($${i + 1} AS ${type === 'string' ? 'VARCHAR' : 'INTEGER'})`
    case '?':
      return '?'
    case '{pN:Type}':
      return `{p${i}:${type === 'string' ? 'String' : 'Int32'}}`
    case '@pN':
      return `@p${i}`
    case ':pN':
      return type === 'string' ? `:p${i}` : `CAST(:p${i} AS INT)`
    case 'json':
      return JSON.stringify({ $param: i })
    case ':n':
      return `:${i + 1}`
  }
}

function expectCode(error: unknown, code: string): ApiError {
  expect(error).toBeInstanceOf(ApiError)
  expect((error as ApiError).code, (error as Error).message).toBe(code)
  expect((error as ApiError).status).toBe(400)
  return error as ApiError
}

/** Polls until `read` gives `want` (a server catches up with a cancel asynchronously), at most ~5 s. */
async function eventually(read: () => Promise<number>, want: number): Promise<number> {
  let value = await read()
  for (let i = 0; i < 50 && value !== want; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    value = await read()
  }
  return value
}

const marker = () => `strata_conf_${randomBytes(6).toString('hex')}`

describe('connector conformance coverage', () => {
  it('every type in the registry has a conformance fixture (a server here, or the reason why not)', () => {
    for (const type of DATASOURCE_TYPES) {
      const fixture = FIXTURES[type]
      expect(fixture, `${type} is registered: add test/connectors/fixtures for it`).toBeDefined()
      const server = fixture?.server
      if (server && 'none' in server) {
        expect(server.none, `${type}: why no server runs here`).toMatch(/^no .{10,}/)
        expect(fixture?.at, `${type}: the cases that need no server still run`).toBeDefined()
      } else {
        expect(fixture?.setup, `${type}: a server here needs setup()`).toBeDefined()
      }
    }
  })
})

/** Whether the fixture's server is here (requireService: skipped loudly, or a failure under CI). */
async function available(fixture: Fixture): Promise<boolean> {
  const { server } = fixture
  if ('service' in server) return requireService(server.service.name, server.service.host, server.service.port)
  if ('engineProcess' in server) return server.engineProcess.available()
  return 'inProcess' in server || 'standIn' in server
}

const SUITES = [
  ...DATASOURCE_TYPES.map((type) => ({ type, label: '', fixture: FIXTURES[type] as Fixture | undefined })),
  ...VARIANTS.map((v) => ({ ...v, label: ` ${v.label}` })),
]

for (const { type, label, fixture } of SUITES) {
  if (fixture === undefined) continue
  const up = await available(fixture)
  const noServer = 'none' in fixture.server ? fixture.server.none : undefined

  const standIn = 'standIn' in fixture.server ? ` (against a stand-in: ${fixture.server.standIn})` : ''
  describe(`${type} connector conformance${label}${standIn}`, () => {
    const capabilities = capabilitiesOf(type)
    let p: Prepared
    let connector: Connector
    const connect = (credentials: unknown, extra: Partial<ConnectorOptions> = {}) =>
      createConnector(type, credentials as ValidCredentials, { ...OPTIONS, ...p?.options, ...extra })

    beforeAll(async () => {
      if (!up || fixture.setup === undefined) return
      p = await fixture.setup()
      connector = connect(p.credentials)
    })
    afterAll(async () => {
      await connector?.close()
      await p?.teardown()
    })

    /** Each case runs, or is skipped with its reason in its title. */
    const check = (name: CaseName, run: () => Promise<void>) => {
      const reason =
        fixture.without?.[name] ??
        (noServer !== undefined && !SERVERLESS_CASES.includes(name) ? noServer : undefined) ??
        (!up && !SERVERLESS_CASES.includes(name) ? 'its server is not running here' : undefined)
      if (reason !== undefined) it.skip(`${name} — ${reason}`, () => undefined)
      else it(name, run)
    }

    /** The suite's statements: the fixture's own (engines without SQL), else SQL in the type's parameter style. */
    const statements = {
      get echo() {
        const style = capabilities.parameterStyle
        return (
          p.statements?.echo ??
          ((count: number) =>
            `select ${Array.from({ length: count }, (_, i) => `${placeholder(style, i)} as v${i}`).join(', ')}, ${placeholder(style, count, 'integer')} as n`)
        )
      },
      get countLabel() {
        return (
          p.statements?.countLabel ??
          `select count(*) as n from conformance where label = ${placeholder(capabilities.parameterStyle, 0)}`
        )
      },
      get countAll() {
        return p.statements?.countAll ?? 'select count(*) as n from conformance'
      },
      get accounts() {
        return p.statements?.accounts ?? 'select label from accounts'
      },
    }

    const cases: Record<CaseName, () => Promise<void>> = {
      connect: async () => {
        await expect(connector.test()).resolves.toBeUndefined()
      },

      'wrong credentials': async () => {
        expect(p.wrongCredentials, 'a fixture without wrongCredentials states why in `without`').toBeDefined()
        const c = connect(p.wrongCredentials)
        try {
          const e = expectCode((await caught(c.test())).error, 'DATASOURCE_CONNECTION_ERROR')
          expect(e.message).not.toContain('wrong-password-xyz')
        } finally {
          await c.close()
        }
      },

      unreachable: async () => {
        const targets: unknown[] = []
        const silent = fixture.at ? await silentServer() : undefined
        try {
          if (fixture.at) targets.push(fixture.at(await closedPort()), fixture.at(silent!.port))
          else targets.push(p.missing)
          for (const credentials of targets) {
            const c = connect(credentials, { connectTimeoutMs: 800 })
            try {
              expectCode((await caught(c.test())).error, 'DATASOURCE_CONNECTION_ERROR')
            } finally {
              await c.close()
            }
          }
        } finally {
          await silent?.close()
        }
      },

      introspect: async () => {
        const tables = await connector.introspect()
        const table = tables.find((t) => t.schema === p.schema && t.name === 'conformance')
        expect(table, JSON.stringify(tables.map((t) => `${t.schema}.${t.name}`))).toBeDefined()
        const expected = Object.entries({ ...COLUMNS, ...p.typeExceptions })
        expect(table?.columns.map((c) => [c.name, c.dataType])).toEqual(expected)
      },

      databases: async () => {
        expect(await connector.databases()).toEqual(expect.arrayContaining([p.home, p.tenant]))
      },

      'hostile parameters': async () => {
        const n = HOSTILE.length
        // started only where it is awaited (a fixture without echo would leave it unhandled)
        const run = () => connector.execute(statements.echo(n), { ...BASE, params: [...HOSTILE, 7] })
        if (p.lacks?.params) {
          // this server cannot bind parameters: a clear refusal, never the values spliced into SQL
          expectCode((await caught(run())).error, 'DATASOURCE_NOT_SUPPORTED')
        } else {
          if (p.statements === undefined || p.statements.echo !== undefined) {
            expect((await run()).rows).toEqual([{ ...Object.fromEntries(HOSTILE.map((v, i) => [`v${i}`, v])), n: 7 }])
          }
          const count = async (label: string) =>
            (await connector.execute(statements.countLabel, { ...BASE, params: [label] })).rows.map((r) => Number(r.n))
          for (const value of HOSTILE) expect(await count(value), value).toEqual([0])
          expect(await count('alpha')).toEqual([1])
        }
        const all = await connector.execute(statements.countAll, BASE)
        expect(all.rows.map((r) => Number(r.n))).toEqual([2])
      },

      'row cap': async () => {
        const capped = await connector.execute(p.series(100), { ...BASE, maxRows: 10 })
        expect([capped.rows.length, capped.truncated]).toEqual([10, true])
        const exact = await connector.execute(p.series(10), { ...BASE, maxRows: 10 })
        expect([exact.rows.length, exact.truncated]).toEqual([10, false])
      },

      timeout: async () => {
        const m = marker()
        const { error } = await caught(connector.execute(p.slow(m), { ...BASE, timeoutMs: p.timeoutMs }))
        expectCode(error, 'QUERY_TIMEOUT')
        if (p.running) expect(await eventually(() => p.running!(m), 0), 'still running on the server').toBe(0)
        expect((await connector.execute(p.series(1), BASE)).rows).toHaveLength(1)
      },

      abort: async () => {
        const m = marker()
        const controller = new AbortController()
        const running = connector.execute(p.slow(m), { ...BASE, timeoutMs: 30_000, signal: controller.signal })
        setTimeout(() => controller.abort(), 300)
        const e = expectCode((await caught(running)).error, 'QUERY_ERROR')
        expect(e.message).toMatch(/cancelled/)
        if (p.running) expect(await eventually(() => p.running!(m), 0), 'still running on the server').toBe(0)
        expect((await connector.execute(p.series(1), BASE)).rows).toHaveLength(1)
      },

      'session time zone': async () => {
        if (p.lacks?.sessionTimeZone) {
          const run = connector.execute(p.instant, { ...BASE, timezone: 'Asia/Tokyo' })
          expectCode((await caught(run)).error, 'DATASOURCE_NOT_SUPPORTED')
          return
        }
        const seen = await Promise.all(
          ZONES.map(async (timezone) => (await connector.execute(p.instant, { ...BASE, timezone })).rows[0]?.t),
        )
        if (capabilities.sessionTimeZone) expect(seen).toEqual(ZONES.map((zone) => p.rendered[zone]))
        else expect(new Set(seen).size).toBe(1) // accepted, not applied
      },

      'DATABASE tenancy': async () => {
        const tenant = await connector.execute(statements.accounts, { ...BASE, database: p.tenant })
        expect(tenant.rows).toEqual([{ label: TENANT_LABEL }])
        expect((await connector.introspect(p.tenant)).map((t) => t.name)).toContain('accounts')
        const unknown = await caught(connector.execute(p.series(1), { ...BASE, database: marker() }))
        expectCode(unknown.error, 'DATASOURCE_CONNECTION_ERROR')
      },

      close: async () => {
        await connector.execute(p.series(1), BASE)
        await connector.execute(statements.accounts, { ...BASE, database: p.tenant })
        if (p.connections) expect(await p.connections()).toBeGreaterThan(0)
        await connector.close()
        if (p.connections) expect(await eventually(() => p.connections!(), 0), 'pools still open').toBe(0)
        for (const call of [() => connector.execute(p.series(1), BASE), () => connector.test()]) {
          const e = expectCode((await caught(call())).error, 'DATASOURCE_CONNECTION_ERROR')
          expect(e.message).toMatch(/the connector is closed/)
        }
        await expect(connector.close()).resolves.toBeUndefined()
      },
    }

    for (const name of CASES) check(name, cases[name])
  })
}
