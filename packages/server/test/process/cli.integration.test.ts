import { execFile } from 'node:child_process'
import { readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { delimiter, dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { salesDocument, salesRelationships, salesTables } from '../helpers/analytics.js'
import {
  CLI_JS,
  type CliResult,
  removeDir,
  request,
  runCli,
  SERVER_DIR,
  type ServerProcess,
  startServer,
  tempDataDir,
} from '../helpers/process.js'
import { requireService } from '../helpers/services.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

/** `strata …` (dist/cli.js) against a live server: the CLI of docs/administration.md#7-the-whole-setup-with-the-cli. */
const ADMIN = [
  '--email',
  'alice@example.com',
  '--password',
  'Str0ng!Pass',
  '--first-name',
  'Alice',
  '--company',
  'Acme',
]
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** A stand-in for the server that answers every request with `answer` and records what it was sent. */
async function apiStub(answer: object) {
  const received: { url?: string; auth?: string; body?: unknown }[] = []
  const stub = createServer(async (req: IncomingMessage, res) => {
    let text = ''
    for await (const chunk of req) text += chunk
    received.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(text) })
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify(answer))
  })
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
    received,
    close: () => new Promise((resolve) => stub.close(resolve)),
  }
}

describe('strata CLI', () => {
  const dataDir = tempDataDir()
  let server: ServerProcess
  let url: string

  beforeAll(async () => {
    server = await startServer({ env: { DATA_DIR: dataDir } })
    url = server.url
  })
  afterAll(async () => {
    await server?.stop()
    removeDir(dataDir)
  })

  it('prints help and exits 0', async () => {
    const help = await runCli(['--help'])
    expect(help.code).toBe(0)
    for (const command of ['serve', 'create-admin', 'service-token', 'create-data-app', 'apply-dashboard']) {
      expect(help.stdout).toContain(command)
    }
    const sub = await runCli(['create-admin', '--help'])
    expect(sub.code).toBe(0)
    expect(sub.stdout).toMatch(/Usage: strata create-admin --email/)
  })

  it('runs as `strata` through a link in another folder, as npm install -g installs it', async () => {
    const pkg = JSON.parse(readFileSync(join(SERVER_DIR, 'package.json'), 'utf8')) as { bin?: unknown }
    expect(pkg.bin).toEqual({ strata: 'bin/strata.js' })
    const bin = join(SERVER_DIR, 'bin', 'strata.js')
    expect(readFileSync(bin, 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/)
    expect(statSync(bin).mode & 0o111).toBe(0o111)
    const dir = tempDataDir()
    try {
      symlinkSync(bin, join(dir, 'strata'))
      const path = [dir, dirname(process.execPath), process.env.PATH].join(delimiter)
      const { stdout } = await promisify(execFile)('strata', ['--help'], {
        cwd: dir,
        env: { ...process.env, PATH: path },
      })
      expect(stdout).toMatch(/^Usage: strata <command>/)
      expect(stdout).toContain('  list-datasources ')
      const version = await promisify(execFile)('strata', ['--version'], { cwd: dir, env: { PATH: path } })
      expect(version.stdout).toBe('0.1.0\n')
    } finally {
      removeDir(dir)
    }
  })

  it('creates the admin, a service token and a data app whose key works', async () => {
    const admin = await runCli(['create-admin', '--url', url, ...ADMIN])
    expect(admin, admin.stderr).toMatchObject({ code: 0, stderr: '' })
    expect(admin.stdout.trim()).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/)

    const again = await runCli(['create-admin', '--url', url, ...ADMIN])
    expect(again.code).toBe(1)
    expect(again.stderr.trim()).toBe('strata: INVALID_REQUEST: The admin account is already created, please sign in')

    const token = await runCli([
      'service-token',
      '--url',
      url,
      '--email',
      'alice@example.com',
      '--password',
      'Str0ng!Pass',
    ])
    expect(token, token.stderr).toMatchObject({ code: 0, stderr: '' })
    const serviceToken = token.stdout.trim()
    expect(serviceToken).toMatch(GUID)

    // STRATA_URL and STRATA_SERVICE_TOKEN instead of flags
    const app = await runCli(['create-data-app', '--name', 'salesapp'], {
      STRATA_URL: url,
      STRATA_SERVICE_TOKEN: serviceToken,
    })
    expect(app, app.stderr).toMatchObject({ code: 0, stderr: '' })
    const key = app.stdout.trim()
    expect(key).toMatch(/^sk_[0-9a-f]{12}_/)
    const whitelist = await request(url, 'GET', '/api/v2/data-app/whitelist-domains', { token: key })
    expect(whitelist.status).toBe(200)

    const json = await runCli([
      'create-data-app',
      '--url',
      url,
      '--service-token',
      serviceToken,
      '--name',
      'other',
      '--json',
    ])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual({ name: 'other', key: expect.stringMatching(/^sk_/) })

    // rotating with a grace period keeps the previous token working
    const rotated = await runCli(['service-token', '--url', url, '--email', 'alice@example.com', '--grace', '60'], {
      STRATA_PASSWORD: 'Str0ng!Pass',
    })
    expect(rotated, rotated.stderr).toMatchObject({ code: 0 })
    for (const t of [serviceToken, rotated.stdout.trim()]) {
      expect((await request(url, 'GET', '/api/v2/data-app', { token: t })).status).toBe(200)
    }

    const duplicate = await runCli([
      'create-data-app',
      '--url',
      url,
      '--service-token',
      serviceToken,
      '--name',
      'salesapp',
    ])
    expect(duplicate.code).toBe(1)
    expect(duplicate.stderr.trim()).toBe('strata: DATA_APP_ALREADY_EXISTS: Data app salesapp already exists')
  })

  it('prints the server error as strata: CODE: message and exits 1', async () => {
    const wrong = await runCli([
      'service-token',
      '--url',
      url,
      '--email',
      'alice@example.com',
      '--password',
      'Wr0ng!pass',
    ])
    expect(wrong).toMatchObject({ code: 1, stdout: '' })
    expect(wrong.stderr.trim()).toBe('strata: INVALID_CREDENTIALS: The password is incorrect')

    const badToken = await runCli(['create-data-app', '--url', url, '--service-token', 'nope', '--name', 'x1'])
    expect(badToken.code).toBe(1)
    expect(badToken.stderr).toMatch(/^strata: AUTHENTICATION_ERROR: /)
  })

  it('reports usage errors and an unreachable server the same way', async () => {
    const missing = await runCli(['create-data-app', '--url', url, '--name', 'x2'])
    expect(missing.code).toBe(1)
    expect(missing.stderr.trim()).toBe('strata: USAGE_ERROR: --service-token is required')

    const unknown = await runCli(['create-admin', '--emial', 'x'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/^strata: USAGE_ERROR: Unknown option '--emial'/)

    const command = await runCli(['frobnicate'])
    expect([command.code, command.stderr.trim()]).toEqual([
      1,
      'strata: USAGE_ERROR: unknown command "frobnicate"; see strata --help',
    ])

    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const down = await runCli(['create-admin', '--url', `http://127.0.0.1:${port}`, ...ADMIN])
    expect(down.code).toBe(1)
    expect(down.stderr).toMatch(/^strata: CONNECTION_ERROR: cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/)
  })

  it('apply-dashboard posts the file to import-dashboard (an export file: its data)', async () => {
    // A stand-in for the import route, so the CLI's request is checked on its own.
    const {
      url: stubUrl,
      received,
      close,
    } = await apiStub({
      data: {
        response: {
          message: '1 metric imported',
          dashboardId: 'sales-overview',
          dashboardName: 'Sales',
          workspaceName: 'main',
        },
      },
    })
    try {
      const document = { name: 'Sales', filters: [], layout: [], metrics: [] }
      const plain = join(dataDir, 'dashboard.json')
      const exported = join(dataDir, 'export.json')
      writeFileSync(plain, JSON.stringify(document))
      writeFileSync(exported, JSON.stringify({ _meta: { dashboardId: 'x', workspaceName: 'w' }, data: document }))
      for (const file of [plain, exported]) {
        const applied = await runCli([
          'apply-dashboard',
          '--url',
          stubUrl,
          '--service-token',
          'st',
          '--workspace',
          'main',
          '--file',
          file,
          '--dashboard-id',
          'sales-overview',
        ])
        expect(applied, applied.stderr).toMatchObject({ code: 0, stdout: 'sales-overview\n' })
      }
      expect(received).toEqual([
        {
          url: '/api/v2/data-app/import-dashboard',
          auth: 'Bearer st',
          body: { workspaceName: 'main', importDashboardData: document, dashboardId: 'sales-overview' },
        },
        {
          url: '/api/v2/data-app/import-dashboard',
          auth: 'Bearer st',
          body: { workspaceName: 'main', importDashboardData: document, dashboardId: 'sales-overview' },
        },
      ])
      const noFile = await runCli([
        'apply-dashboard',
        '--url',
        stubUrl,
        '--service-token',
        'st',
        '--workspace',
        'main',
        '--file',
        join(dataDir, 'missing.json'),
      ])
      expect([noFile.code, noFile.stderr]).toEqual([
        1,
        expect.stringMatching(/^strata: FILE_ERROR: cannot read .*missing\.json \(ENOENT\)/),
      ])
    } finally {
      await close()
    }
  })

  it('create-datasource posts the file as is and prints a response warning on stderr', async () => {
    // A stand-in answering 200 with a warning (e.g. introspection found no table).
    const {
      url: stubUrl,
      received,
      close,
    } = await apiStub({
      data: { id: 'ds-1', tables: 0, warnings: ['no table found in schema nope'] },
    })
    try {
      const body = { datasourceType: 'postgres', credentials: { name: 'w', schema: 'nope' } }
      const path = join(dataDir, 'ds-warning.json')
      writeFileSync(path, JSON.stringify(body))
      const created = await runCli(['create-datasource', '--url', stubUrl, '--file', path], {
        STRATA_SERVICE_TOKEN: 'st',
      })
      expect(created).toEqual({ code: 0, stdout: 'ds-1\n', stderr: 'strata: warning: no table found in schema nope\n' })
      expect(received).toEqual([{ url: '/api/v2/datasource', auth: 'Bearer st', body }])
    } finally {
      await close()
    }
  })

  it('serve starts the server like dist/main.js and drains on SIGTERM', async () => {
    const dir = tempDataDir()
    try {
      const served = await startServer({ script: CLI_JS, args: ['serve'], env: { DATA_DIR: dir } })
      const live = await request(served.url, 'GET', '/health/live')
      expect([live.status, live.body]).toEqual([200, { status: 'live' }])
      expect(await served.stop()).toMatchObject({ code: 0 })
    } finally {
      removeDir(dir)
    }
  })
})

const hasPostgres = await requireService('PostgreSQL', '127.0.0.1', 5432)

/** Every setup step of docs/administration.md through the CLI, against a live server and a Postgres warehouse. */
describe.skipIf(!hasPostgres)('strata CLI: the whole setup against a Postgres warehouse', () => {
  const dataDir = tempDataDir()
  let server: ServerProcess
  let wh: PgWarehouse
  let url: string
  let serviceToken: string
  let dataAppKey: string
  const secrets: string[] = []
  const file = (name: string, value: unknown): string => {
    const path = join(dataDir, name)
    writeFileSync(path, JSON.stringify(value))
    return path
  }
  /** Runs the CLI against the server; no secret ever appears on stderr. */
  const cli = async (args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> => {
    const result = await runCli([...args, '--url', url], env)
    for (const secret of secrets) expect(result.stderr).not.toContain(secret)
    return result
  }
  const ok = (result: CliResult): string => {
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' })
    expect(result.stdout).toMatch(/\n$/)
    return result.stdout
  }

  beforeAll(async () => {
    wh = await createPgWarehouse()
    server = await startServer({ env: { DATA_DIR: dataDir } })
    url = server.url
    expect((await runCli(['create-admin', '--url', url, ...ADMIN])).code).toBe(0)
    serviceToken = (
      await runCli(['service-token', '--url', url, '--email', 'alice@example.com'], { STRATA_PASSWORD: 'Str0ng!Pass' })
    ).stdout.trim()
    expect(serviceToken).toMatch(GUID)
    secrets.push(serviceToken, 'Str0ng!Pass')
  })
  afterAll(async () => {
    await server?.stop()
    await wh?.drop()
    removeDir(dataDir)
  })

  it('lists every command in --help, and each command its flags', async () => {
    const flags: Record<string, string[]> = {
      'create-datasource': ['--service-token', '--file'],
      'sync-datasource': ['--service-token', '--datasource-id'],
      'create-datamart': ['--service-token', '--file', '--name', '--datasource'],
      'create-workspace': ['--service-token', '--name', '--datamart', '--datasource', '--connection-type', '--file'],
      'create-embed': [
        '--data-app-key',
        '--dashboard-id',
        '--workspace',
        '--name',
        '--datamart',
        '--access-file',
        '--embed-type',
        '--metric-id',
        '"metricCreationMode": "DRAG_DROP"',
      ],
      'set-whitelist-domains': ['--data-app-key', '--domain', '--clear'],
      'list-datasources': ['--service-token'],
      'update-datasource': ['--service-token', '--file'],
      'delete-datasource': ['--service-token', '--name'],
      'list-datamarts': ['--service-token'],
      'update-datamart': ['--service-token', '--file', '--name'],
      'delete-datamart': ['--service-token', '--name'],
      'list-workspaces': ['--service-token'],
      'update-workspace': ['--service-token', '--name', '--datamart', '--datasource', '--connection-type', '--file'],
      'delete-workspace': ['--service-token', '--name'],
      'list-dashboards': ['--data-app-key', '--name'],
      'export-dashboard': ['--service-token', '--workspace', '--dashboard-id'],
      'delete-dashboard': ['--service-token', '--workspace', '--dashboard-id'],
      'list-embeds': ['--data-app-key', '--client-id'],
      'update-embed': ['--data-app-key', '--embed-id', '--access-file', '--datamart', '--workspace', '--name'],
      'delete-embed': ['--data-app-key', '--embed-id', '--delete-dashboard'],
      'list-keys': ['--service-token', '--data-app'],
      'create-key': ['--service-token', '--data-app', '--name', '--description'],
      'delete-key': ['--service-token', '--data-app', '--key'],
      'create-guest-token': [
        '--data-app-key',
        '--data-app',
        '--client-id',
        '--params-file',
        '--permissions-file',
        '--expiry',
      ],
    }
    const main = await runCli(['--help'])
    for (const [command, list] of Object.entries(flags)) {
      expect(main.stdout).toContain(`  ${command} `)
      const help = await runCli([command, '--help'])
      expect(help.code).toBe(0)
      expect(help.stdout).toContain(`Usage: strata ${command} `)
      for (const flag of [...list, '--url', '--json']) expect(help.stdout, `${command} ${flag}`).toContain(flag)
    }
  }, 120_000) // a CLI process per command (about 30): ~10 s quiet, near 30 s on a loaded machine

  it('runs datasource → sync → datamart → workspace → data app → dashboard → embed → whitelist → guest token', async () => {
    const env = { STRATA_SERVICE_TOKEN: serviceToken }
    const dsFile = file('ds.json', {
      datasourceType: 'postgres',
      credentials: { name: 'warehouse', ...wh.credentials },
    })
    const datasourceId = ok(await cli(['create-datasource', '--file', dsFile], env)).trim()
    expect(datasourceId).toMatch(/^\S+$/)
    const listed = await request(url, 'GET', '/api/v2/datasource', { token: serviceToken })
    expect(listed.body.data.map((d: { name: string }) => d.name)).toEqual(['warehouse'])

    const synced = await cli(['sync-datasource', '--datasource-id', datasourceId, '--json'], env)
    expect(JSON.parse(ok(synced))).toEqual({ data: { message: expect.any(String) } })
    expect(ok(await cli(['sync-datasource', '--datasource-id', 'warehouse'], env))).toMatch(/^[^\n]+\n$/)

    const dmFile = file('dm.json', {
      name: 'ignored',
      tableList: salesTables(wh.schema),
      relationships: salesRelationships(wh.schema),
    })
    expect(
      ok(await cli(['create-datamart', '--file', dmFile, '--name', 'sales', '--datasource', 'warehouse'], env)),
    ).toBe('sales\n')

    expect(ok(await cli(['create-workspace', '--name', 'main', '--datamart', 'sales'], env))).toBe('main\n')
    const wsJson = await cli(['create-workspace', '--name', 'other', '--datamart', 'sales', '--json'], env)
    expect(JSON.parse(ok(wsJson))).toEqual({ data: { name: 'other' }, error: null })

    dataAppKey = ok(await cli(['create-data-app', '--name', 'salesapp'], env)).trim()
    expect(dataAppKey).toMatch(/^sk_/)
    secrets.push(dataAppKey)
    const docFile = file('dashboard.json', salesDocument(wh.schema))
    const applied = await cli(
      ['apply-dashboard', '--workspace', 'main', '--file', docFile, '--dashboard-id', 'sales-overview'],
      env,
    )
    expect(ok(applied)).toBe('sales-overview\n')
    // --dry-run: every metric run with no rows, one line each, nothing saved; a broken one exits 1
    const dry = await cli(['apply-dashboard', '--workspace', 'main', '--file', docFile, '--dry-run'], env)
    expect(ok(dry)).toBe('revenue: ok\nrevenue_by_country: ok\norders_by_month: ok\n')
    const broken = salesDocument(wh.schema)
    const brokenSql = {
      ...broken,
      metrics: [
        ...broken.metrics,
        { metricId: 'typo', name: 'Typo', chart: { type: 'table' }, sql: `select amont from ${wh.schema}.orders` },
      ],
    }
    const brokenFile = file('broken.json', brokenSql)
    const dryBroken = await cli(['apply-dashboard', '--workspace', 'main', '--file', brokenFile, '--dry-run'], env)
    expect(dryBroken.code).toBe(1)
    expect(dryBroken.stdout).toMatch(/^typo: .*amont/m)
    // the same id again: the document is replaced in place (PUT), not refused
    const renamed = file('renamed.json', { ...salesDocument(wh.schema), name: 'Sales, renamed' })
    const again = await cli(
      ['apply-dashboard', '--workspace', 'main', '--file', renamed, '--dashboard-id', 'sales-overview', '--json'],
      env,
    )
    expect(JSON.parse(ok(again)).data.response).toMatchObject({ dashboardId: 'sales-overview' })

    const keyEnv = { STRATA_DATA_APP_KEY: dataAppKey }
    const embedArgs = ['--dashboard-id', 'sales-overview', '--workspace', 'main', '--datamart', 'sales']
    const embedId = ok(await cli(['create-embed', ...embedArgs, '--name', 'Sales'], keyEnv)).trim()
    expect(embedId).toMatch(/^\S+$/)
    const access = file('access.json', { isAllowUnderlyingData: true, metricCreationMode: 'DRAG_DROP' })
    const partial = await cli(['create-embed', ...embedArgs, '--name', 'Sales 2', '--access-file', access], keyEnv)
    expect(partial.code).toBe(1)
    expect(partial.stderr).toMatch(/^strata: [A-Z_]+: .*isAllowEmailReports/)
    const embedJson = await cli([
      'create-embed',
      '--data-app-key',
      dataAppKey,
      ...embedArgs,
      '--name',
      'Sales 3',
      '--json',
    ])
    expect(JSON.parse(ok(embedJson))).toEqual({ id: expect.any(String), error: null })

    const domains = await cli(
      ['set-whitelist-domains', '--domain', 'app.example.com', '--domain', '*.customer.com'],
      keyEnv,
    )
    expect(ok(domains)).toBe('app.example.com\n*.customer.com\n')
    const domainsJson = await cli(['set-whitelist-domains', '--domain', 'localhost:3000', '--json'], keyEnv)
    expect(JSON.parse(ok(domainsJson))).toEqual({ data: ['localhost:3000'] })
    expect(await cli(['set-whitelist-domains', '--clear'], keyEnv)).toMatchObject({ code: 0, stdout: '', stderr: '' })
    expect(ok(await cli(['set-whitelist-domains', '--domain', 'app.example.com'], keyEnv))).toBe('app.example.com\n')

    const params = file('params.json', { allowedEmbeds: [embedId], timezone: 'UTC' })
    const tokenArgs = ['create-guest-token', '--data-app', 'salesapp', '--client-id', 'acme', '--params-file', params]
    const guestToken = ok(await cli(tokenArgs, keyEnv)).trim()
    expect(guestToken).toMatch(/^\S{16,}$/)
    // the token opens the embed for its tenant
    const runtime = await request(url, 'GET', `/api/v2/embed/runtime/${embedId}`, { token: guestToken })
    expect(runtime.status, JSON.stringify(runtime.body)).toBe(200)
    const tokenJson = await cli([...tokenArgs, '--expiry', '60000', '--json'], keyEnv)
    expect(JSON.parse(ok(tokenJson))).toEqual({ token: expect.any(String) })

    // --embed names the allowed embeds without a params file: another embed is refused
    const embedOnly = ok(
      await cli(['create-guest-token', '--data-app', 'salesapp', '--client-id', 'acme', '--embed', embedId], keyEnv),
    ).trim()
    expect((await request(url, 'GET', `/api/v2/embed/runtime/${embedId}`, { token: embedOnly })).status).toBe(200)
    const other = await request(url, 'GET', '/api/v2/embed/runtime/emb_000000000000', { token: embedOnly })
    expect([other.status, (other.body as { error?: { code?: string } }).error?.code]).toEqual([403, 'UNAUTHORIZED'])
  }, 120_000) // ~20 CLI processes each start Node: slow on a loaded machine, never a timing assertion

  it('refuses with the API code on stderr, exit 1, and never echoes a token or key', async () => {
    const env = { STRATA_SERVICE_TOKEN: serviceToken, STRATA_DATA_APP_KEY: dataAppKey }
    const dsFile = file('ds2.json', {
      datasourceType: 'postgres',
      credentials: { name: 'warehouse', ...wh.credentials },
    })
    const duplicate = await cli(['create-datasource', '--file', dsFile], env)
    expect([duplicate.code, duplicate.stdout]).toEqual([1, ''])
    expect(duplicate.stderr).toMatch(/^strata: [A-Z_]+: [^\n]+\n$/)

    const unknown = await cli(['sync-datasource', '--datasource-id', 'nowhere'], env)
    expect([unknown.code, unknown.stdout]).toEqual([1, ''])
    expect(unknown.stderr).toMatch(/^strata: [A-Z_]+: .*nowhere/)

    const noWorkspace = await cli(
      ['create-embed', '--dashboard-id', 'sales-overview', '--workspace', 'nope', '--name', 'x', '--datamart', 'sales'],
      env,
    )
    expect([noWorkspace.code, noWorkspace.stdout]).toEqual([1, ''])
    expect(noWorkspace.stderr).toMatch(/^strata: [A-Z_]+: /)

    // a wrong data app key (shaped like a real one) is named by its code, never echoed
    const wrongKey = `${dataAppKey.slice(0, -4)}0000`
    secrets.push(wrongKey)
    const refused = await cli(['create-guest-token', '--data-app', 'salesapp', '--client-id', 'acme'], {
      STRATA_DATA_APP_KEY: wrongKey,
    })
    expect([refused.code, refused.stdout]).toEqual([1, ''])
    expect(refused.stderr).toMatch(/^strata: AUTHENTICATION_ERROR: /)
    const whitelist = await cli(['set-whitelist-domains', '--data-app-key', wrongKey, '--domain', 'a.example.com'])
    expect(whitelist.stderr).toMatch(/^strata: INVALID_DATA_APP_API_KEY: /)

    const otherApp = await cli(['create-guest-token', '--data-app', 'otherapp', '--client-id', 'acme'], env)
    expect(otherApp.code).toBe(1)
    expect(otherApp.stderr).toMatch(/^strata: [A-Z_]+: dataAppName/)

    const usage = await cli(['set-whitelist-domains'], env)
    expect([usage.code, usage.stderr.trim()]).toEqual([
      1,
      'strata: USAGE_ERROR: --domain is required (repeat it for several; --clear allows none)',
    ])
    const noFile = await cli(['create-datamart', '--file', join(dataDir, 'missing.json')], env)
    expect(noFile.stderr).toMatch(/^strata: FILE_ERROR: cannot read .*missing\.json \(ENOENT\)/)
    const badJson = join(dataDir, 'bad.json')
    writeFileSync(badJson, '{ nope')
    const notJson = await cli(['create-datasource', '--file', badJson], env)
    expect(notJson.stderr.trim()).toBe(`strata: FILE_ERROR: ${badJson} is not valid JSON`)
  }, 120_000) // ~20 CLI processes each start Node: slow on a loaded machine, never a timing assertion

  it('lists, updates and deletes what the setup made; an unknown name is the API code and exit 1', async () => {
    const env = { STRATA_SERVICE_TOKEN: serviceToken, STRATA_DATA_APP_KEY: dataAppKey }
    const refused = (result: CliResult, code: string): void => {
      expect([result.code, result.stdout], result.stderr).toEqual([1, ''])
      expect(result.stderr).toMatch(new RegExp(`^strata: ${code}: [^\\n]+\\n$`))
    }
    const date = '\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z'

    // datasources
    expect(ok(await cli(['list-datasources'], env))).toMatch(new RegExp(`^warehouse\\tpostgres\\t${date}\\n$`))
    const dsList = JSON.parse(ok(await cli(['list-datasources', '--json'], env)))
    expect(dsList.data).toEqual([{ name: 'warehouse', datasourceType: 'postgres', createdAt: expect.any(String) }])
    const dsFile = file('ds-update.json', {
      datasourceType: 'postgres',
      credentials: { name: 'warehouse', ...wh.credentials },
    })
    const datasourceId = ok(await cli(['update-datasource', '--file', dsFile], env)).trim()
    expect(datasourceId).toMatch(/^\S+$/)
    const dsNowhere = file('ds-nowhere.json', {
      datasourceType: 'postgres',
      credentials: { name: 'nowhere', ...wh.credentials },
    })
    refused(await cli(['update-datasource', '--file', dsNowhere], env), 'INVALID_REQUEST_BODY')

    // datamarts: create-datamart's file updates too (its name, its datasource left out)
    expect(ok(await cli(['list-datamarts'], env))).toMatch(new RegExp(`^sales\\twarehouse\\t${date}\\n$`))
    const dmList = JSON.parse(ok(await cli(['list-datamarts', '--json'], env)))
    expect(dmList.data[0]).toMatchObject({ name: 'sales', datamartTables: expect.any(Array) })
    const dmFile = file('dm-update.json', {
      name: 'sales',
      datasourceName: 'warehouse',
      tableList: salesTables(wh.schema),
      relationships: salesRelationships(wh.schema),
    })
    expect(ok(await cli(['update-datamart', '--file', dmFile], env))).toBe('sales\n')
    refused(await cli(['update-datamart', '--file', dmFile, '--name', 'nowhere'], env), 'INVALID_REQUEST_BODY')

    // workspaces
    expect(ok(await cli(['list-workspaces'], env))).toMatch(
      new RegExp(`^main\\tDATAMART\\tsales\\twarehouse\\t${date}\\nother\\tDATAMART\\tsales\\twarehouse\\t${date}\\n$`),
    )
    expect(ok(await cli(['update-workspace', '--name', 'other', '--datamart', 'sales'], env))).toBe('other\n')
    refused(
      await cli(['update-workspace', '--name', 'nowhere', '--datamart', 'sales'], env),
      'WORKSPACE_DOES_NOT_EXIST',
    )

    // dashboards: export prints a file apply-dashboard reads back
    const embeds = ok(await cli(['list-embeds'], env))
      .slice(0, -1) // the last newline (a trailing field may be empty)
      .split('\n')
      .map((line) => line.split('\t'))
    expect(embeds).toEqual([
      [expect.stringMatching(/^emb_/), 'dashboard', 'Sales', 'sales-overview', ''],
      [expect.stringMatching(/^emb_/), 'dashboard', 'Sales 3', 'sales-overview', ''],
    ])
    const [embedId = '', otherEmbedId = ''] = embeds.map((row) => row[0] ?? '')
    expect(await cli(['list-embeds', '--client-id', 'nobody'], env)).toMatchObject({ code: 0, stdout: '', stderr: '' })
    expect(ok(await cli(['list-dashboards'], env))).toBe(
      `sales-overview\tSales, renamed\t${embedId}\nsales-overview\tSales, renamed\t${otherEmbedId}\n`,
    )
    const exported = ok(await cli(['export-dashboard', '--workspace', 'main', '--dashboard-id', 'sales-overview'], env))
    expect(JSON.parse(exported)).toMatchObject({
      _meta: { dashboardId: 'sales-overview' },
      data: { name: 'Sales, renamed' },
    })
    const exportFile = join(dataDir, 'exported.json')
    writeFileSync(exportFile, exported)
    const reapplied = [
      'apply-dashboard',
      '--workspace',
      'main',
      '--file',
      exportFile,
      '--dashboard-id',
      'sales-overview',
    ]
    expect(ok(await cli(reapplied, env))).toBe('sales-overview\n')
    refused(
      await cli(['export-dashboard', '--workspace', 'main', '--dashboard-id', 'nowhere'], env),
      'INVALID_REQUEST_BODY',
    )

    // embeds
    const access = file('access-update.json', { isAllowUnderlyingData: false })
    expect(ok(await cli(['update-embed', '--embed-id', embedId, '--access-file', access], env))).toBe(`${embedId}\n`)
    expect(ok(await cli(['update-embed', '--embed-id', otherEmbedId, '--name', 'Sales, again'], env))).toBe(
      `${otherEmbedId}\n`,
    )
    const listed = JSON.parse(ok(await cli(['list-embeds', '--json'], env)))
    expect(listed.data.map((e: { name: string }) => e.name)).toEqual(['Sales', 'Sales, again'])
    refused(
      await cli(['update-embed', '--embed-id', 'emb_000000000000', '--datamart', 'sales'], env),
      'EMBED_NOT_FOUND',
    )

    // data app keys: the list shows ids, never secrets; a revoked key stops at once
    const firstId = dataAppKey.slice(0, 'sk_'.length + 12)
    expect(ok(await cli(['list-keys', '--data-app', 'salesapp'], env))).toMatch(new RegExp(`^${firstId}\\t`))
    const second = ok(
      await cli(['create-key', '--data-app', 'salesapp', '--name', 'ci', '--description', 'CI'], env),
    ).trim()
    secrets.push(second)
    const secondId = second.slice(0, 'sk_'.length + 12)
    const keys = ok(await cli(['list-keys', '--data-app', 'salesapp'], env))
    expect(keys).toMatch(new RegExp(`^${secondId}\\tci\\tCI\\t${date}$`, 'm'))
    expect(keys).not.toContain(second)
    expect((await request(url, 'GET', '/api/v2/data-app/whitelist-domains', { token: second })).status).toBe(200)
    expect(ok(await cli(['delete-key', '--data-app', 'salesapp', '--key', secondId], env))).toBe(`${secondId}\n`)
    expect((await request(url, 'GET', '/api/v2/data-app/whitelist-domains', { token: second })).status).not.toBe(200)
    refused(await cli(['delete-key', '--data-app', 'salesapp', '--key', secondId], env), 'INVALID_REQUEST_BODY')

    // deletes, in the order the references allow
    const dashboardArgs = ['--workspace', 'main', '--dashboard-id', 'sales-overview']
    refused(await cli(['delete-dashboard', ...dashboardArgs], env), 'INVALID_REQUEST_BODY')
    const guest = ok(
      await cli(['create-guest-token', '--data-app', 'salesapp', '--client-id', 'acme', '--embed', embedId], env),
    ).trim()
    expect((await request(url, 'GET', `/api/v2/embed/runtime/${embedId}`, { token: guest })).status).toBe(200)
    for (const id of [embedId, otherEmbedId])
      expect(ok(await cli(['delete-embed', '--embed-id', id], env))).toBe(`${id}\n`)
    expect((await request(url, 'GET', `/api/v2/embed/runtime/${embedId}`, { token: guest })).status).toBe(401)
    refused(await cli(['delete-embed', '--embed-id', embedId], env), 'INVALID_REQUEST_BODY')
    expect(await cli(['list-embeds'], env)).toMatchObject({ code: 0, stdout: '', stderr: '' })

    refused(await cli(['delete-workspace', '--name', 'main'], env), 'INVALID_REQUEST_BODY')
    expect(ok(await cli(['delete-dashboard', ...dashboardArgs], env))).toBe('sales-overview\n')
    refused(await cli(['delete-dashboard', ...dashboardArgs], env), 'INVALID_REQUEST_BODY')

    refused(await cli(['delete-datamart', '--name', 'sales'], env), 'INVALID_REQUEST_BODY')
    for (const name of ['main', 'other'])
      expect(ok(await cli(['delete-workspace', '--name', name], env))).toBe(`${name}\n`)
    refused(await cli(['delete-workspace', '--name', 'main'], env), 'WORKSPACE_DOES_NOT_EXIST')
    expect(await cli(['list-workspaces'], env)).toMatchObject({ code: 0, stdout: '', stderr: '' })

    refused(await cli(['delete-datasource', '--name', 'warehouse'], env), 'INVALID_REQUEST_BODY')
    expect(ok(await cli(['delete-datamart', '--name', 'sales'], env))).toBe('sales\n')
    refused(await cli(['delete-datamart', '--name', 'sales'], env), 'INVALID_REQUEST_BODY')
    expect(await cli(['list-datamarts'], env)).toMatchObject({ code: 0, stdout: '', stderr: '' })

    expect(ok(await cli(['delete-datasource', '--name', 'warehouse'], env))).toBe(`${datasourceId}\n`)
    refused(await cli(['delete-datasource', '--name', 'warehouse'], env), 'INVALID_DATASOURCE_NAME')
    expect(await cli(['list-datasources'], env)).toMatchObject({ code: 0, stdout: '', stderr: '' })
  }, 240_000) // ~60 CLI processes each start Node: slow on a loaded machine, never a timing assertion
})
