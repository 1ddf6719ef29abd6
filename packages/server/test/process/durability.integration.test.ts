import { describe, expect, it } from 'vitest'
import type { StoreKind } from '../../src/store/store.js'
import { createPostgresDatabase } from '../helpers/app.js'
import { bootstrapOver, removeDir, request, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'
import { requireService } from '../helpers/services.js'
import { useCleanups } from '../helpers/suite.js'

/**
 * docs/operations.md#durability: writes acknowledged with 200 survive `kill -9` of the server (both stores).
 * Several clients write as fast as the server answers (new API keys, whitelist updates);
 * the server is SIGKILLed mid-stream, restarted on the same store, and every write that
 * was answered 200 must be there, whole.
 */
const stores: StoreKind[] = (await requireService('PostgreSQL', '127.0.0.1', 5432))
  ? ['sqlite', 'postgres']
  : ['sqlite']

const KEY_WRITERS = 6
/** SIGKILL once this many writes were acknowledged (or after KILL_AFTER_MS). */
const KILL_AT_ACKS = 500
const KILL_AFTER_MS = 8_000

interface KeyWrite {
  readonly name: string
  readonly description: string
}

const keyWrite = (writer: number, i: number): KeyWrite => ({
  name: `k${writer}-${i}`,
  description: `written by writer ${writer}, write ${i}`,
})
const domainsOf = (i: number) => [`v${i}.example.com`, '*.customer.com']
/** `sk_<12 hex>` is the public identifier a listed key shows; the secret is `sk_<id>_<…>`. */
const keyIdOf = (secret: string) => /^(sk_[0-9a-f]{12})_/.exec(secret)?.[1]

describe.each(stores)('kill -9 durability on %s', (store) => {
  const cleanups = useCleanups()

  it('keeps every write acknowledged with 200, and nothing half-written', { timeout: 90_000 }, async () => {
    const dataDir = tempDataDir()
    cleanups.push(() => removeDir(dataDir))
    const env: Record<string, string> = { DATA_DIR: dataDir, RATE_LIMIT: '0', AUTH_ROUTE_RATE_LIMIT: '0' }
    if (store === 'postgres') {
      const database = await createPostgresDatabase()
      cleanups.push(database.drop)
      env.DATABASE_URL = database.url
    }
    const first: ServerProcess = await startServer({ env })
    cleanups.push(async () => void (await first.stop()))
    const { serviceToken, dataAppKey } = await bootstrapOver(first.url)

    const acked = new Map<string, KeyWrite & { secret: string }>() // key id → write
    const inFlight = new Map<string, KeyWrite>() // name → write
    const domains = { acked: -1, inFlight: undefined as number | undefined, count: 0 }
    const unexpected: string[] = []
    let writing = true

    const keyWriter = async (writer: number) => {
      for (let i = 0; writing; i++) {
        const write = keyWrite(writer, i)
        inFlight.set(write.name, write)
        let res: Awaited<ReturnType<typeof request>>
        try {
          res = await request(first.url, 'POST', '/api/v2/data-app/api-tokens', {
            token: serviceToken,
            body: { dataAppName: 'salesapp', ...write },
          })
        } catch {
          return // the server is gone: this write was never acknowledged
        }
        inFlight.delete(write.name)
        const keyId = res.status === 200 ? keyIdOf(String(res.body.key)) : undefined
        if (!keyId) {
          unexpected.push(`${res.status} ${JSON.stringify(res.body)}`)
          return
        }
        acked.set(keyId, { ...write, secret: res.body.key })
      }
    }
    const domainWriter = async () => {
      for (let i = 0; writing; i++) {
        domains.inFlight = i
        let res: Awaited<ReturnType<typeof request>>
        try {
          res = await request(first.url, 'PUT', '/api/v2/data-app/whitelist-domains', {
            token: dataAppKey,
            body: { domains: domainsOf(i) },
          })
        } catch {
          return
        }
        domains.inFlight = undefined
        if (res.status !== 200) {
          unexpected.push(`${res.status} ${JSON.stringify(res.body)}`)
          return
        }
        domains.acked = i
        domains.count += 1
      }
    }

    const started = performance.now()
    const writers = [...Array.from({ length: KEY_WRITERS }, (_, w) => keyWriter(w)), domainWriter()]
    while (acked.size + domains.count < KILL_AT_ACKS && performance.now() - started < KILL_AFTER_MS) {
      if (unexpected.length > 0) break
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    first.kill('SIGKILL')
    const exit = await first.exited
    const elapsedMs = Math.round(performance.now() - started)
    await Promise.all(writers)
    writing = false
    expect(unexpected).toEqual([])
    expect(exit.signal).toBe('SIGKILL')
    const inFlightAtKill = [...inFlight.values()]

    const second = await startServer({ env })
    cleanups.push(async () => void (await second.stop()))
    const list = await request(second.url, 'GET', '/api/v2/data-app/api-tokens?dataAppName=salesapp', {
      token: serviceToken,
    })
    expect(list.status).toBe(200)
    const listed = new Map<string, KeyWrite>(
      (list.body.data as { key: string; name: string; description: string }[]).map((k) => [
        k.key,
        { name: k.name, description: k.description },
      ]),
    )

    // every acknowledged key is there, whole
    const lost = [...acked.entries()].filter(([keyId]) => !listed.has(keyId))
    expect(lost, 'acknowledged keys missing after kill -9').toEqual([])
    for (const [keyId, write] of acked) {
      expect(listed.get(keyId), keyId).toEqual({ name: write.name, description: write.description })
    }
    // nothing half-written: each listed key is the data app's first one, an acknowledged
    // write, or one in flight at the kill, and carries exactly what was sent
    const extra = [...listed.entries()].filter(([keyId]) => !acked.has(keyId))
    for (const [keyId, key] of extra) {
      if (key.name === 'default') continue
      const sent = inFlight.get(key.name)
      expect(sent, `unexpected key ${keyId} ${JSON.stringify(key)}`).toBeDefined()
      expect(key).toEqual(sent)
    }
    // the acknowledged secrets still authenticate (their hashes survived intact)
    const secrets = [...acked.values()].map((w) => w.secret)
    for (let i = 0; i < secrets.length; i += 20) {
      const batch = await Promise.all(
        secrets
          .slice(i, i + 20)
          .map((secret) => request(second.url, 'GET', '/api/v2/data-app/whitelist-domains', { token: secret })),
      )
      expect(batch.map((r) => r.status)).toEqual(batch.map(() => 200))
    }
    // the whitelist holds the last acknowledged update, or the one in flight at the kill
    const whitelist = await request(second.url, 'GET', '/api/v2/data-app/whitelist-domains', { token: dataAppKey })
    const allowed = [domains.acked, domains.inFlight ?? -1].filter((i) => i >= 0).map(domainsOf)
    expect(allowed).toContainEqual(whitelist.body.data)

    const extraInFlight = extra.filter(([, k]) => k.name !== 'default').length
    console.log(
      `[durability/${store}] SIGKILL after ${elapsedMs} ms: ${acked.size + domains.count} writes acknowledged ` +
        `(${acked.size} API keys, ${domains.count} whitelist updates), ${inFlightAtKill.length + (domains.inFlight === undefined ? 0 : 1)} in flight; ` +
        `after restart ${acked.size - lost.length}/${acked.size} acknowledged keys kept whole, ` +
        `${extraInFlight} in-flight keys also committed, whitelist at ` +
        `${whitelist.body.data[0]} (last acknowledged v${domains.acked}.example.com)`,
    )
    expect(acked.size).toBeGreaterThan(0)
    expect(domains.count).toBeGreaterThan(0)
  })
})
