import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeDir, request, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'

/** The demo data app's key, printed once on stderr around the ready line. */
async function printedKey(server: ServerProcess): Promise<string | undefined> {
  for (let i = 0; i < 50; i++) {
    const key = server.stderr.join('\n').match(/API key \(shown once\): (sk_\S+)/)?.[1]
    if (key) return key
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return undefined
}

/**
 * Start-up and API smoke: the production build started as `npm start` starts it, with the
 * shipped defaults and the demo on (its first start seeds it), then the path a customer takes:
 * ready, a guest token minted with the printed key, the embed loaded and a metric queried with
 * it, the OpenAPI document served. CI also runs this file alone on the newest Node line
 * (scripts/node-line.sh, docs/operations.md#node-versions), so it says what that line needs.
 */
describe(`start-up and API smoke on Node ${process.version}`, () => {
  let dataDir: string
  let server: ServerProcess
  beforeAll(async () => {
    dataDir = tempDataDir()
    server = await startServer({ env: { DATA_DIR: dataDir, DEMO: 'true' }, readyTimeoutMs: 60_000 })
  }, 90_000)
  afterAll(async () => {
    await server?.stop()
    removeDir(dataDir)
  })

  it('is ready, and its probes say so', async () => {
    const live = await request(server.url, 'GET', '/health/live')
    expect(live.status).toBe(200)
    const ready = await request(server.url, 'GET', '/health/ready')
    expect(ready.status, JSON.stringify(ready.body)).toBe(200)
    expect(ready.body.status).toBe('ready')
  })

  it('mints a guest token with the demo key, loads the embed and queries a metric with it', async () => {
    const key = await printedKey(server)
    expect(key, server.stderr.join('\n')).toMatch(/^sk_/)
    const mint = async (clientId: string) => {
      const res = await request(server.url, 'POST', '/api/v2/guest-token/create', {
        token: key,
        body: { dataAppName: 'demo', clientId, params: { allowedEmbeds: ['demo-sales'] } },
      })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return res.body.token as string
    }
    const [acme, globex] = [await mint('acme'), await mint('globex')]

    const embed = await request(server.url, 'GET', '/api/v2/embed/runtime/demo-sales', { token: acme })
    expect(embed.status, JSON.stringify(embed.body)).toBe(200)
    const metricIds: string[] = JSON.stringify(embed.body).match(/"metricId":"[^"]+"/g) ?? []
    expect(metricIds.length).toBeGreaterThan(0)
    const metricId = JSON.parse(`{${metricIds[0]}}`).metricId as string

    const query = (token: string) =>
      request(server.url, 'POST', '/api/v2/embed/runtime/demo-sales/query', { token, body: { metricId } })
    const [ofAcme, ofGlobex] = [await query(acme), await query(globex)]
    expect(ofAcme.status, JSON.stringify(ofAcme.body)).toBe(200)
    expect(ofAcme.body).toMatchObject({ metricid: metricId, error: null })
    expect(ofAcme.body.data.length).toBeGreaterThan(0)
    expect(ofGlobex.status).toBe(200)
    // each tenant sees its own rows
    expect(ofGlobex.body.data).not.toEqual(ofAcme.body.data)

    const refused = await request(server.url, 'POST', '/api/v2/embed/runtime/demo-sales/query', {
      token: `${acme.slice(0, -4)}AAAA`,
      body: { metricId },
    })
    expect(refused.status).toBe(401)
    expect(refused.body).toEqual({ error: { code: expect.any(String), message: expect.any(String) } })
  })

  it('serves the OpenAPI document', async () => {
    const doc = await request(server.url, 'GET', '/openapi.json')
    expect(doc.status).toBe(200)
    expect(doc.body.openapi).toMatch(/^3\.1\./)
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/v2/guest-token/create', '/api/v2/embed/runtime/{embedId}/query']),
    )
  })
})
