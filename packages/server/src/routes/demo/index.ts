import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { ApiError } from '../../errors.js'
import { PRIMARY_ORGANIZATION_ID } from '../../services/admin/admin-accounts.js'
import { DEMO } from '../../services/demo/seed.js'
import { serveBuiltChunks } from '../built-chunks.js'
import { demoPage } from './page.js'

/** The two tenants the demo page shows side by side. */
export const DEMO_PAGE_TENANTS = ['acme', 'globex'] as const
type DemoTenant = (typeof DEMO_PAGE_TENANTS)[number]

/**
 * The embed allows self-serve (services/demo/seed.ts); the tokens narrow it: acme's end user may
 * build, change, arrange and save views, globex's may only look (each flag turned off).
 */
const SELF_SERVE: Record<DemoTenant, Record<string, boolean>> = {
  acme: {},
  globex: {
    isDisableMetricCreation: true,
    isEnableMetricUpdation: false,
    isEnableManageMetrics: false,
    isEnableArchiveMetrics: false,
    isEnableCustomizeLayout: false,
    isEnableCreateDashboardView: false,
    isEnableUnderlyingData: false,
  },
}
/** acme's panel is one named user (private metrics are theirs); globex's token names none. */
const DEMO_PAGE_USERS: Record<DemoTenant, { userIdentifier?: string }> = {
  acme: { userIdentifier: 'ada@acme.example' },
  globex: {},
}
const TOKEN_TTL_MS = 60 * 60 * 1000

/**
 * `/sdk/strata-embed.js` (the web component's entry module), the chunks it imports
 * (`/sdk/chunk-<hash>.js`: content-hashed, so cached as immutable), and the `/` redirect always; `/demo` and `/demo/token` when
 * DEMO is on: guest tokens for the demo data app's two tenants, minted server-side exactly as
 * a customer backend would.
 */
const demo: FastifyPluginAsyncTypebox = async (app) => {
  const { config, dataApps, guestTokens } = app.services

  let bundle: Promise<string> | undefined
  app.get('/sdk/strata-embed.js', { schema: { hide: true } }, async (_request, reply) => {
    bundle ??= readFile(createRequire(import.meta.url).resolve('@strata/embed'), 'utf8')
    const text = await bundle.catch(() => {
      bundle = undefined
      throw new ApiError('NOT_FOUND', 404, 'The web component is not built: run npm run build')
    })
    return reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .send(text)
  })

  // Chunks: the self-serve UI (builder, card menu) the entry loads with import(), and code both share.
  serveBuiltChunks(app, {
    prefix: '/sdk',
    packageName: '@strata/embed',
    built: 'the web component',
    headers: (reply) => reply.header('access-control-allow-origin', '*'),
  })

  // `GET /` (under BASE_PATH too): the demo when it is on, else the API reference (issue 13).
  app.get('/', { schema: { hide: true } }, async (_request, reply) =>
    reply.redirect(`${config.basePath}${config.demo ? '/demo' : '/docs'}`, 302),
  )

  if (!config.demo) return

  const mint = async (tenant: DemoTenant): Promise<string> => {
    const dataApp = await dataApps.byName(PRIMARY_ORGANIZATION_ID, DEMO.dataApp)
    if (!dataApp) throw new ApiError('NOT_FOUND', 404, 'The demo is not seeded yet')
    const principal = {
      kind: 'dataApp' as const,
      organizationId: PRIMARY_ORGANIZATION_ID,
      dataAppId: dataApp.id,
      dataAppName: DEMO.dataApp,
      keyId: null,
    }
    const { token } = await guestTokens.mint(principal, {
      dataAppName: DEMO.dataApp,
      clientId: tenant,
      params: { allowedEmbeds: [DEMO.dashboardId], timezone: 'UTC', ...DEMO_PAGE_USERS[tenant] },
      permissions: {
        isEnableDownloadMetrics: true,
        isShowDashboardName: true,
        isShowSideBar: true,
        ...SELF_SERVE[tenant],
      },
      expiryTime: TOKEN_TTL_MS,
    })
    return token
  }

  app.get('/demo', { schema: { hide: true } }, async (_request, reply) => {
    const tokens = await Promise.all(DEMO_PAGE_TENANTS.map(async (tenant) => ({ tenant, token: await mint(tenant) })))
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(demoPage({ basePath: config.basePath, embedId: DEMO.dashboardId, tokens }))
  })
  app.get(
    '/demo/token',
    {
      schema: {
        hide: true,
        querystring: Type.Object(
          { tenant: Type.Union(DEMO_PAGE_TENANTS.map((t) => Type.Literal(t))) },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) =>
      reply.header('cache-control', 'no-store').send({ token: await mint(request.query.tenant) }),
  )
}

export default demo
