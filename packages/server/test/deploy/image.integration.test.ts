import { randomBytes } from 'node:crypto'
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildImage,
  containerToolsAvailable,
  freePort,
  podman,
  REPO_DIR,
  run,
  startContainer,
  waitForOk,
} from '../helpers/container.js'
import { bootstrapOver, removeDir, request } from '../helpers/process.js'
import { csvDataset, expectOk, setupFilesAnalytics } from '../reliability/live.js'

/**
 * The container image (Containerfile, docs/deployment.md), built by scripts/build-test-image.sh and
 * run with podman: it starts on an empty /data volume, answers its health probes, passes the
 * guest-token path a customer's backend and page take (bootstrap → data app → key → embed → mint
 * → runtime calls), runs the `strata` CLI by name, runs as a non-root user and holds neither dev
 * dependencies nor TypeScript sources.
 */
const available = containerToolsAvailable()
const UID = 10001 // the image's `strata` user

describe.runIf(available)('the container image', () => {
  const cleanups: (() => Promise<unknown> | unknown)[] = []
  let image: string
  let name: string
  let base: string
  let dataDir: string
  let warehouse: string
  let serviceToken = ''

  beforeAll(async () => {
    image = await buildImage()
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    name = `strata-image-test-${randomBytes(4).toString('hex')}`
    // a fresh /data the container's user owns, and a read-only warehouse of CSV files
    dataDir = mkdtempSync(join(tmpdir(), 'strata-image-data-'))
    chownSync(dataDir, UID, UID)
    warehouse = csvDataset()
    for (const dir of [warehouse, join(warehouse, 'files')]) chmodSync(dir, 0o755)
    cleanups.push(() => {
      removeDir(dataDir)
      removeDir(warehouse)
    })
    cleanups.push(
      await startContainer({
        name,
        image,
        env: { PORT: String(port), ENCRYPTION_KEY: randomBytes(32).toString('hex'), FILES_ROOT: '/warehouse' },
        volumes: [`${dataDir}:/data`, `${warehouse}:/warehouse:ro`],
      }),
    )
    try {
      await waitForOk(`${base}/health/ready`)
    } catch (err) {
      const logs = await run('podman', ['logs', name])
      throw new Error(`${(err as Error).message}\ncontainer output:\n${logs.stdout}${logs.stderr}`)
    }
  }, 40 * 60_000)

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  const exec = (...args: string[]) => run('podman', ['exec', name, ...args])

  it('is configured as an operator expects: HOST=0.0.0.0, DATA_DIR=/data volume, health check, non-root user', async () => {
    const [config] = JSON.parse(await podman('image', 'inspect', image)) as [
      {
        Config: { Env: string[]; User: string; Volumes: Record<string, unknown>; Cmd: string[] }
        Healthcheck?: { Test: string[] }
      },
    ]
    expect(config.Config.Env).toEqual(expect.arrayContaining(['HOST=0.0.0.0', 'DATA_DIR=/data', 'PORT=8080']))
    expect(Object.keys(config.Config.Volumes)).toEqual(['/data'])
    expect(config.Config.User).toBe('strata')
    expect(config.Config.Cmd).toEqual(['strata', 'serve'])
    expect(config.Healthcheck?.Test.join(' ')).toContain('/health/ready')
    // the image's own HEALTHCHECK, run now against the started server
    const check = await run('podman', ['healthcheck', 'run', name])
    expect(check.code, check.stdout + check.stderr).toBe(0)
    // and the same command fails when nothing ready answers (here: at another port)
    const [kind, ...command] = config.Healthcheck?.Test ?? []
    expect(kind).toBe('CMD')
    const elsewhere = await run('podman', ['exec', '--env', `PORT=${await freePort()}`, name, ...command])
    expect(elsewhere.code).toBe(1)

    const id = await exec('id', '-u')
    expect(id.stdout.trim()).toBe(String(UID))
    const server = await exec('sh', '-c', 'ps -o user=,args= -p 1 2>/dev/null || cat /proc/1/status')
    expect(server.stdout).not.toMatch(/^root\b|Uid:\s+0\b/m)
    // the metadata store was created in the volume
    expect(existsSync(join(dataDir, 'strata.db'))).toBe(true)
    console.log(`[image] ${image}: ${(await podman('image', 'inspect', '--format', '{{.Size}}', image)).trim()} bytes`)
  })

  it('answers the health probes', async () => {
    const live = await request(base, 'GET', '/health/live')
    expect([live.status, live.body]).toEqual([200, { status: 'live' }])
    const ready = await request(base, 'GET', '/health/ready')
    expect(ready.status).toBe(200)
    expect(ready.body.status).toBe('ready')
    expect(ready.body.checks.postgres.status).toBe('UP')
  })

  it('passes the guest-token path: bootstrap, data app, key, embed, mint, runtime calls', async () => {
    const creds = await bootstrapOver(base)
    serviceToken = creds.serviceToken
    const key = expectOk(
      await request(base, 'POST', '/api/v2/data-app/api-tokens', {
        token: creds.serviceToken,
        body: { dataAppName: 'salesapp', name: 'backend' },
      }),
      'key',
    ).key as string
    const { embedId } = await setupFilesAnalytics(base, creds)
    const mint = (clientId: string) =>
      request(base, 'POST', '/api/v2/guest-token/create', {
        token: key,
        body: { dataAppName: 'salesapp', clientId },
      })
    const token = expectOk(await mint('acme'), 'mint').token as string
    const load = expectOk(await request(base, 'GET', `/api/v2/embed/runtime/${embedId}`, { token }), 'load')
    expect(load.metrics.length).toBeGreaterThan(0)
    const orders = async (guest: string) => {
      const res = expectOk(
        await request(base, 'POST', `/api/v2/embed/runtime/${embedId}/query`, {
          token: guest,
          body: { metricId: 'orders', dashboardFilter: { period: 'All time' } },
        }),
        'query',
      )
      return Number(res.data[0].orders)
    }
    // each tenant sees its own rows: the counts of the CSV's tenant column
    const csv = readFileSync(join(warehouse, 'files', 'orders.csv'), 'utf8')
      .trimEnd()
      .split('\n')
      .slice(1)
    const expected = (tenant: string) => csv.filter((line) => line.split(',')[2] === tenant).length
    expect(expected('acme')).toBeGreaterThan(0)
    expect(await orders(token)).toBe(expected('acme'))
    expect(await orders(expectOk(await mint('globex'), 'mint').token as string)).toBe(expected('globex'))
    // and the errors keep their shape
    const anonymous = await request(base, 'GET', `/api/v2/embed/runtime/${embedId}`)
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.error.code).toBe('AUTHENTICATION_ERROR')
  })

  it('runs the strata CLI by its name', async () => {
    const help = await exec('strata', '--help')
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Usage: strata <command> [options]')
    const version = await exec('strata', '--version')
    const pkg = JSON.parse(readFileSync(join(REPO_DIR, 'packages', 'server', 'package.json'), 'utf8'))
    expect(version.stdout.trim()).toBe(pkg.version)
    // a client command against the server in the same container (the datasource of the test above)
    const port = new URL(base).port
    const list = await run('podman', [
      'exec',
      '--env',
      `STRATA_SERVICE_TOKEN=${serviceToken}`,
      name,
      'strata',
      'list-datasources',
      '--url',
      `http://127.0.0.1:${port}`,
    ])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toContain('files')
  })

  it('holds no dev dependency and no TypeScript source', async () => {
    const lock = JSON.parse(readFileSync(join(REPO_DIR, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>
    }
    const dev = Object.entries(lock.packages)
      .filter(([path, entry]) => entry.dev === true && path.includes('node_modules/'))
      .map(([path]) => path)
    expect(dev).toEqual(expect.arrayContaining(['node_modules/typescript', 'node_modules/vitest']))
    const present = await exec(
      'node',
      '-e',
      'const fs = require("node:fs"); console.log(JSON.stringify(process.argv.slice(1).filter((p) => fs.existsSync("/app/" + p))))',
      ...dev,
    )
    expect(JSON.parse(present.stdout)).toEqual([])
    // our own packages: built JavaScript only (no src/, test/, .ts or tsconfig)
    const ours = await exec(
      'sh',
      '-c',
      "find /app/packages -path '*/node_modules' -prune -o \\( -name '*.ts' -o -name src -o -name test -o -name 'tsconfig*.json' \\) -print",
    )
    expect(ours.stdout.trim()).toBe('')
    const dist = await exec('ls', '/app/packages/server/dist/main.js', '/app/packages/embed/dist/strata-embed.js')
    expect(dist.code).toBe(0)
  })
})
