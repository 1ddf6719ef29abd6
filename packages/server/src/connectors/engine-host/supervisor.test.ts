import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { ApiError } from '../../errors.js'
import { DuckdbConnector } from '../duckdb/connector.js'
import { nodeReservedBytes } from './runtime-reserve.js'
import { EngineHost } from './supervisor.js'

/**
 * Issue 24 item 1 (regression): DuckDB's memory_limit does not bound everything (its JSON reader
 * grew the server to 23 GB), and DuckDB ran inside the server. The engine process has a ceiling
 * that holds: RLIMIT_DATA (prlimit), under which an allocation fails inside DuckDB and the
 * process lives on; and a watchdog on its resident size, which kills it past the ceiling (the
 * backstop without prlimit). Either way the server, here the test worker, is untouched.
 */
const CEILING_MB = 384
/** Needs well over a GiB (20 M distinct strings): past the ceiling within a second. */
const HUNGRY = "select count(*) as n from (select distinct i::varchar || repeat('x', 40) from range(20000000) t(i))"
const base = { params: [], timeoutMs: 60_000, maxRows: 10 }

describe('the engine process memory ceiling', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'strata-engine-'))
    await mkdir(path.join(dir, 'data'))
    await writeFile(path.join(dir, 'data', 'small.csv'), 'id\n1\n2\n')
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  const over = (engine: EngineHost) =>
    new DuckdbConnector(
      { kind: 'csv', credentials: { name: 'files', path: 'data' } },
      // DuckDB's own limit far above the process ceiling: the ceiling is what stops the query
      { connectTimeoutMs: 1000, poolMax: 2, filesRoot: dir, duckdbMemoryLimitMb: 16_384, engine },
    )

  it.skipIf(!existsSync('/usr/bin/prlimit'))(
    'prlimit --data: the allocation past the ceiling fails inside DuckDB (QUERY_ERROR); the process lives on (the watchdog, its line above the ceiling, does not fire)',
    async () => {
      const engine = new EngineHost({ memoryLimitMb: CEILING_MB })
      const connector = over(engine)
      try {
        expect((await connector.execute('select count(*) as n from small', base)).rows).toEqual([{ n: 2 }])
        const pid = engine.pid
        const { error } = await caught(connector.execute(HUNGRY, base))
        expect(error).toBeInstanceOf(ApiError)
        expect([(error as ApiError).code, (error as ApiError).message]).toEqual([
          'QUERY_ERROR',
          expect.stringMatching(/Out of Memory|Allocation failure|bad_alloc/i),
        ])
        expect(engine.pid).toBe(pid)
        expect((await connector.execute('select count(*) as n from small', base)).rows).toEqual([{ n: 2 }])
      } finally {
        await connector.close()
        await engine.close()
      }
    },
  )

  it.skipIf(!existsSync('/usr/bin/prlimit'))(
    'starts under the lowest ceiling ENGINE_MEMORY_LIMIT_MB allows (256 MiB) on this Node line: RLIMIT_DATA adds what Node reserves at start (from Node 24 on, its 512 MB code range)',
    async () => {
      expect(await nodeReservedBytes(['--import', 'tsx'])).toBeGreaterThan(0)
      const engine = new EngineHost({ memoryLimitMb: 256 })
      const connector = over(engine)
      try {
        expect((await connector.execute('select count(*) as n from small', base)).rows).toEqual([{ n: 2 }])
      } finally {
        await connector.close()
        await engine.close()
      }
    },
  )

  it('the watchdog (no prlimit): past the ceiling the process is killed, its query fails clearly, the next one runs in a new process', async () => {
    const engine = new EngineHost({ memoryLimitMb: CEILING_MB, hardLimit: false, watchdogMs: 50 })
    const connector = over(engine)
    try {
      expect((await connector.execute('select count(*) as n from small', base)).rows).toEqual([{ n: 2 }])
      const [pid, generation] = [engine.pid, engine.generation]
      const { error } = await caught(connector.execute(HUNGRY, base))
      expect(error).toBeInstanceOf(ApiError)
      expect((error as ApiError).code).toBe('DATASOURCE_CONNECTION_ERROR')
      expect((error as ApiError).message).toMatch(
        /query engine process stopped \(its memory passed 384 MiB \(ceiling ENGINE_MEMORY_LIMIT_MB 384 MiB\) while this ran\)/,
      )
      expect((await connector.execute('select count(*) as n from small', base)).rows).toEqual([{ n: 2 }])
      expect([engine.generation, engine.pid === pid]).toEqual([generation + 1, false])
    } finally {
      await connector.close()
      await engine.close()
    }
  })

  it('close() stops the process; a request after it fails at once', async () => {
    const engine = new EngineHost({ memoryLimitMb: CEILING_MB })
    const connector = over(engine)
    await connector.test()
    const pid = engine.pid as number
    await engine.close()
    expect(() => process.kill(pid, 0)).toThrow()
    const { error } = await caught(connector.execute('select 1', base))
    expect((error as ApiError).code).toBe('DATASOURCE_CONNECTION_ERROR')
    await connector.close()
  })

  it('a crash loop backs off: the first restart at once, then 0.5 s, 1 s; each death logged', async () => {
    const stopped: Record<string, unknown>[] = []
    const log = { info: () => {}, error: (obj: Record<string, unknown>) => stopped.push(obj) }
    const engine = new EngineHost({ memoryLimitMb: CEILING_MB, log })
    try {
      const waits: number[] = []
      for (let i = 0; i < 3; i++) {
        const started = Date.now()
        await engine.start()
        waits.push(Date.now() - started)
        const pid = engine.pid as number
        const gone = new Promise((resolve) => {
          const poll = setInterval(() => {
            if (!engine.alive(engine.generation)) resolve(clearInterval(poll))
          }, 10)
        })
        process.kill(pid, 'SIGKILL')
        await gone
      }
      const started = Date.now()
      await engine.start()
      waits.push(Date.now() - started)
      // starting a child takes its own time: the waits grow by at least the backoff
      expect(waits[2] as number).toBeGreaterThanOrEqual(500)
      expect(waits[3] as number).toBeGreaterThanOrEqual(1000)
      expect(stopped.map((s) => [s.signal, s.restartInMs])).toEqual([
        ['SIGKILL', 0],
        ['SIGKILL', 500],
        ['SIGKILL', 1000],
      ])
    } finally {
      await engine.close()
    }
  })
})

describe('the requests of one turn', () => {
  it('cross to the engine process as one message, each answered on its own: a failing one fails alone', async () => {
    const engine = new EngineHost({ memoryLimitMb: CEILING_MB })
    try {
      await engine.start()
      const before = engine.messagesSent
      // made in one turn, as a dashboard's nine metric queries reach the engine
      const calls = [
        ...Array.from({ length: 8 }, (_, i) => engine.call('duckdb.interrupt', { queryId: `none-${i}` })),
        engine.call('duckdb.nothing', {}),
        engine.call('duckdb.interrupt', { queryId: 'x', f: () => {} }),
      ]
      const settled = await Promise.allSettled(calls)
      expect(settled.slice(0, 8)).toEqual(Array.from({ length: 8 }, () => ({ status: 'fulfilled', value: undefined })))
      expect(settled[8]).toMatchObject({ status: 'rejected', reason: { message: /unknown engine operation/ } })
      // a value structured clone cannot carry: refused on this side, the others sent all the same
      expect(settled[9]).toMatchObject({ status: 'rejected', reason: { message: /could not be cloned/ } })
      // one batch, then each of its nine messages alone (one of them could not be cloned)
      expect(engine.messagesSent - before).toBe(9)
      const again = engine.messagesSent
      await Promise.all(Array.from({ length: 9 }, (_, i) => engine.call('duckdb.interrupt', { queryId: `y-${i}` })))
      expect(engine.messagesSent - again).toBe(1)
    } finally {
      await engine.close()
    }
  })
})
