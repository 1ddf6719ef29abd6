import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { startServerIn } from '../helpers/draining.js'
import type { LogLine, ServerProcess } from '../helpers/process.js'
import { useCleanups } from '../helpers/suite.js'

const CRASH_ON_SIGUSR2 = fileURLToPath(new URL('../fixtures/crash-on-sigusr2.mjs', import.meta.url))
const REQUESTS = 400

/**
 * docs/operations.md#logging: log lines are written asynchronously, and every way out of the process
 * writes out what is buffered first. Each test answers many requests (an access line each, at
 * the default LOG_LEVEL=info), stops reading the server's stdout, so that its writes back up
 * behind a full pipe, signals the process at once, and only then reads on: every access line
 * and the last line must be there.
 */
describe('log lines written asynchronously are all out when the process ends', () => {
  const cleanups = useCleanups()

  async function burst(server: ServerProcess): Promise<void> {
    const statuses = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const res = await fetch(`${server.url}/health/live?n=${i}`)
        await res.arrayBuffer()
        return res.status
      }),
    )
    expect(statuses.every((s) => s === 200)).toBe(true)
  }

  const accessLines = (logs: readonly LogLine[]) =>
    logs.filter((l) => l.msg === 'request' && String(l.url).startsWith('/health/live?n='))

  it('on SIGTERM: every access line, then "stopped", exit 0', async () => {
    const server = await startServerIn(cleanups)
    server.child.stdout?.pause()
    await burst(server)
    server.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 200))
    server.child.stdout?.resume()
    const exit = await server.exited
    await new Promise((resolve) => setImmediate(resolve))
    expect(exit).toMatchObject({ code: 0, signal: null })
    expect(accessLines(server.logs)).toHaveLength(REQUESTS)
    expect(server.logs.at(-1)?.msg).toBe('stopped')
  })

  it('on an error nothing caught: every access line, then the fatal line with the error, exit 1', async () => {
    const server = await startServerIn(cleanups, {}, { nodeArgs: ['--import', CRASH_ON_SIGUSR2] })
    server.child.stdout?.pause()
    await burst(server)
    server.kill('SIGUSR2')
    await new Promise((resolve) => setTimeout(resolve, 200))
    server.child.stdout?.resume()
    const exit = await server.exited
    await new Promise((resolve) => setImmediate(resolve))
    expect(exit).toMatchObject({ code: 1, signal: null })
    expect(accessLines(server.logs)).toHaveLength(REQUESTS)
    // An access line is written when its response has finished on the server's side, which a
    // server whose event loop runs behind may see after the signal's handler has logged: the
    // fatal line is then followed by those access lines (written out by the same flush), and by
    // nothing else.
    const at = server.logs.findIndex((l) => l.msg === 'fatal error; exiting')
    const fatal = server.logs[at]
    expect(fatal).toMatchObject({ level: 60, origin: 'uncaughtException' })
    expect((fatal?.err as { message?: string } | undefined)?.message).toBe('an error nothing caught (test fixture)')
    const after = server.logs.slice(at + 1)
    expect(after.filter((l) => !accessLines([l]).length)).toEqual([])
  })
})
