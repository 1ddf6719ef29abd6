import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * The company's own site, made from the studio's snippets as copied: the Node snippet is the
 * backend's module (it mints a guest token with the data-app key from the environment), the
 * HTML snippet is the page, and `POST /api/strata-token` (the route the HTML snippet calls)
 * answers with a token for `clientId`. Served on 127.0.0.1 on a port of its own: another origin
 * than the server's.
 */
export interface SnippetSite {
  /** `127.0.0.1:<port>`, as the whitelist takes it. */
  readonly origin: string
  readonly url: string
  close(): Promise<void>
}

export async function startSnippetSite(options: {
  readonly dir: string
  readonly nodeSnippet: string
  readonly htmlSnippet: string
  readonly dataAppKey: string
  readonly clientId: string
}): Promise<SnippetSite> {
  mkdirSync(options.dir, { recursive: true })
  const file = join(options.dir, `strata-token-${Date.now()}.mjs`)
  writeFileSync(file, options.nodeSnippet)
  // the snippet's client reads the key from the environment when the module loads
  const before = process.env.STRATA_DATA_APP_KEY
  process.env.STRATA_DATA_APP_KEY = options.dataAppKey
  let backend: { strataToken: (c: string) => Promise<string> }
  try {
    backend = await import(pathToFileURL(file).href)
  } finally {
    if (before === undefined) delete process.env.STRATA_DATA_APP_KEY
    else process.env.STRATA_DATA_APP_KEY = before
  }
  const mint = (clientId: string) => backend.strataToken(clientId)
  const site: Server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/api/strata-token') {
      mint(options.clientId).then(
        (token) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token })),
        (err) => res.writeHead(500).end(String(err)),
      )
      return
    }
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<!doctype html><title>The company's site</title><body>${options.htmlSnippet}</body>`)
  })
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r))
  const origin = `127.0.0.1:${(site.address() as AddressInfo).port}`
  return {
    origin,
    url: `http://${origin}/`,
    close: () => new Promise<void>((r) => site.close(() => r())),
  }
}
