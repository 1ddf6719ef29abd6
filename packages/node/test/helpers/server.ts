import { afterAll, beforeAll } from 'vitest'
import type { StoreKind } from '../../../server/src/store/store.js'
import { createTestApp, type TestContext } from '../../../server/test/helpers/app.js'
import { bootstrapOver } from '../../../server/test/helpers/process.js'

/**
 * A real Strata server for the client to talk to: the server's test app (helpers/app.ts of
 * packages/server) on an empty store of the given kind, listening on a free loopback port, with
 * the admin, a service token and the data app `salesapp` created over HTTP.
 */
export interface LiveServer {
  readonly t: TestContext
  /** `http://127.0.0.1:<port>` and the BASE_PATH, if any */
  readonly url: string
  readonly apiKey: string
  readonly serviceToken: string
  readonly dataAppName: string
}

export async function startLiveServer(store: StoreKind, env: Record<string, string> = {}): Promise<LiveServer> {
  const t = await createTestApp(store, { LOG_LEVEL: 'warn', ...env })
  const url = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}${t.config.basePath}`
  const { dataAppKey, serviceToken } = await bootstrapOver(url)
  return { t, url, apiKey: dataAppKey, serviceToken, dataAppName: 'salesapp' }
}

/** One live server for the whole describe: read its fields inside hooks and tests. */
export function useLiveServer(store: StoreKind, env: Record<string, string> = {}): LiveServer {
  let server: LiveServer | undefined
  beforeAll(async () => {
    server = await startLiveServer(store, env)
  })
  afterAll(async () => server?.t.close())
  return new Proxy({} as LiveServer, {
    get(_, key) {
      if (!server) throw new Error('the live server is set by beforeAll: read it in a hook or a test')
      return Reflect.get(server, key)
    },
  })
}

/** One JSON request with a bearer token, for what the client does not call (the browser's runtime routes). */
export async function call(url: string, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}
