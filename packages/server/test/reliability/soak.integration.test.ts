import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * `npm run soak` (scripts/soak.mjs) for 10 seconds: the production build under a mixed load of
 * guest-token mints, embed lists, backend queries and browser runtime loads and queries, from
 * one process. Zero errors, the server alive, memory not climbing. CI runs only this short
 * version; the 10-minute figures are in docs/reliability.md.
 */
const SOAK = fileURLToPath(new URL('../../../../scripts/soak.mjs', import.meta.url))

describe('soak (10 seconds)', () => {
  it('serves a mixed load with zero errors and flat memory', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [SOAK, '--seconds', '10', '--concurrency', '8', '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c
    })
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c
    })
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    const last = stdout.trim().split('\n').at(-1) ?? ''
    let result: Record<string, unknown>
    try {
      result = JSON.parse(last)
    } catch {
      throw new Error(`soak printed no result (exit ${code}):\n${stdout}\n${stderr}`)
    }
    console.log(
      `[soak] ${result.durationS} s, ${result.concurrency} clients: ${result.requests} requests (${result.requestsPerSecond}/s), ` +
        `${result.errors} errors; RSS ${result.rssStartMb} MB after warm-up → ${result.rssEndMb} MB at the end ` +
        `(peak ${result.rssPeakMb} MB, second-half growth ${result.rssSecondHalfGrowthMb} MB)`,
    )
    expect(result.errorSamples, stderr).toEqual([])
    expect(result.errors).toBe(0)
    expect(result.serverAlive).toBe(true)
    expect(result.requests as number).toBeGreaterThan(200) // on a loaded CI machine too
    for (const kind of ['mint', 'list', 'query', 'runtime-load', 'runtime-query']) {
      expect((result.byKind as Record<string, { count: number }>)[kind]?.count, kind).toBeGreaterThan(0)
    }
    expect(result.ok).toBe(true)
    expect(code).toBe(0)
  })
})
