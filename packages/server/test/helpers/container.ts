import { spawn, spawnSync } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type CliResult, collectOutput } from './process.js'
import { isCI } from './services.js'

/**
 * Helpers for the tests of the container image and the compose cluster (test/deploy): podman runs
 * them with host networking, through the runtime wrapper scripts/build-test-image.sh configures
 * (this VM refuses setrlimit to containers). Locally, without podman or debootstrap, those suites
 * skip loudly; under CI=true the build script installs them, so the suites never skip.
 */
export const REPO_DIR = fileURLToPath(new URL('../../../..', import.meta.url))
export const IMAGE_CACHE = process.env.STRATA_IMAGE_CACHE ?? join(REPO_DIR, '.cache', 'container')
export const IMAGE = process.env.STRATA_IMAGE ?? 'localhost/strata:test'

/** podman's configuration written by the build script: runc without rlimits. */
export const podmanEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  CONTAINERS_CONF: join(IMAGE_CACHE, 'containers.conf'),
})

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0

/** Whether the image suites can run here; under CI they must (the build script installs the tools). */
export function containerToolsAvailable(): boolean {
  if (isCI) return true
  const missing = ['podman', 'debootstrap', 'runc', 'jq'].filter((tool) => !has(tool))
  if (missing.length === 0) return true
  console.warn(`\n  ⚠ SKIPPING container image tests: ${missing.join(', ')} not installed (apt-get install them)\n`)
  return false
}

/** Runs a command to completion (podman's own env), never throwing on a non-zero exit. */
export function run(command: string, args: readonly string[], timeoutMs = 120_000): Promise<CliResult> {
  const child = spawn(command, args, { env: podmanEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  return collectOutput(child).finally(() => clearTimeout(timer))
}

/** Like run, but a non-zero exit throws with the output. */
export async function runOk(command: string, args: readonly string[], timeoutMs?: number): Promise<string> {
  const result = await run(command, args, timeoutMs)
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`)
  }
  return result.stdout
}

export const podman = (...args: string[]) => runOk('podman', args)

/**
 * Builds the image with scripts/build-test-image.sh (once per machine and source state: its base
 * and podman's layer cache are reused, and concurrent callers wait on its lock).
 */
export async function buildImage(): Promise<string> {
  const started = performance.now()
  const out = await runOk('bash', [join(REPO_DIR, 'scripts', 'build-test-image.sh')], 30 * 60_000)
  const image = out.trim().split('\n').at(-1) as string
  console.log(`[image] ${image} ready in ${Math.round((performance.now() - started) / 1000)} s`)
  return image
}

/** A TCP port free on 127.0.0.1 right now (the containers share the host's network). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

/** Polls `url` until it answers 200; throws with the last answer after `timeoutMs`. */
export async function waitForOk(url: string, timeoutMs = 90_000): Promise<void> {
  const deadline = performance.now() + timeoutMs
  let last = 'no answer'
  while (performance.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) })
      if (res.status === 200) return
      last = `${res.status} ${await res.text()}`
    } catch (err) {
      last = (err as Error).message
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms: ${last}`)
}

export interface ContainerOptions {
  readonly name: string
  readonly image: string
  readonly env?: Readonly<Record<string, string>>
  /** `host-path:container-path[:ro]` */
  readonly volumes?: readonly string[]
}

/**
 * Starts a container on the host's network and resolves once podman started it; the result
 * removes it. A Strata image's HEALTHCHECK is not scheduled: podman schedules checks through
 * systemd timers, which this machine lacks (a test runs `podman healthcheck run` itself).
 */
export async function startContainer(options: ContainerOptions): Promise<() => Promise<CliResult>> {
  const strata = options.image === IMAGE
  await podman(
    'run',
    '--detach',
    '--name',
    options.name,
    '--network',
    'host',
    ...(strata ? ['--health-interval', 'disable'] : []),
    ...Object.entries(options.env ?? {}).flatMap(([key, value]) => ['--env', `${key}=${value}`]),
    ...(options.volumes ?? []).flatMap((volume) => ['--volume', volume]),
    options.image,
  )
  return () => run('podman', ['rm', '--force', '--time', '0', options.name])
}
