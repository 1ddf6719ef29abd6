import { writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI_JS, removeDir, request, runCli, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'

/** `strata …` (dist/cli.js) against a live server: DESIGN.md §2.1's CLI. */
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
    const received: { url?: string; auth?: string; body?: unknown }[] = []
    const stub = createServer(async (req: IncomingMessage, res) => {
      let text = ''
      for await (const chunk of req) text += chunk
      received.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(text) })
      res.setHeader('content-type', 'application/json')
      res.end(
        JSON.stringify({
          data: {
            response: {
              message: '1 metric imported',
              dashboardId: 'sales-overview',
              dashboardName: 'Sales',
              workspaceName: 'main',
            },
          },
        }),
      )
    })
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve))
    const stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`
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
      await new Promise((resolve) => stub.close(resolve))
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
