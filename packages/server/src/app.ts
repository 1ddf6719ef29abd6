import { randomUUID } from 'node:crypto'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { DashboardDocumentSchema } from '@strata/contract/document'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  LogController,
} from 'fastify'
import type { DestinationStream, Logger } from 'pino'
import type { Config } from './config.js'
import { ApiError } from './errors.js'
import { createLogger, RequestLogger, redactUrl } from './logger.js'
import { answerClientError, installErrorHandling, sendError } from './plugins/app/error-handler.js'
import { installJsonBodyParsing } from './plugins/app/json-body.js'
import { lazySchemaCompilers } from './plugins/app/lazy-schemas.js'
import { proxyTrust } from './plugins/app/rate-limit/client.js'
import rateLimit from './plugins/app/rate-limit/plugin.js'
import adminAccount from './routes/admin/admin-account.js'
import serviceToken from './routes/admin/service-token.js'
import dashboardLists from './routes/data-app/dashboards.js'
import embeds from './routes/data-app/embeds.js'
import guestTokens from './routes/data-app/guest-tokens.js'
import metricQuery from './routes/data-app/query.js'
import dataAppReports from './routes/data-app/reports.js'
import rollups from './routes/data-app/rollups.js'
import whitelistDomains from './routes/data-app/whitelist-domains.js'
import demo from './routes/demo/index.js'
import embedRuntime from './routes/embed-runtime/runtime.js'
import health from './routes/health/index.js'
import dashboards from './routes/service/dashboards.js'
import dataAppEmbeds from './routes/service/data-app-embeds.js'
import dataApps from './routes/service/data-apps.js'
import datamarts from './routes/service/datamarts.js'
import datasourceFiles from './routes/service/datasource-files.js'
import datasources from './routes/service/datasources.js'
import workspaces from './routes/service/workspaces.js'
import studio from './routes/studio/index.js'
import studioPreviewToken from './routes/studio/preview-token.js'
import studioTenants from './routes/studio/tenants.js'
import { ErrorResponse } from './schemas/common.js'
import { DATASOURCE_COMPONENTS } from './schemas/datasource-request.js'
import { documentFailures } from './schemas/openapi.js'
import { createServices, type Services } from './services/index.js'
import { AJV_OPTIONS } from './validation/schema-errors.js'

declare module 'fastify' {
  interface FastifyInstance {
    services: Services
  }
  interface FastifyContextConfig {
    /** Answer SELFHOSTED_APP_ERROR (500) when SELF_HOSTED=false, before anything else. */
    selfHostedOnly?: boolean
  }
}

export interface BuildOptions {
  /** Where log lines go (tests capture them); stdout by default. */
  readonly logStream?: DestinationStream
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  // TRUST_PROXY: only these peers may name the client (X-Forwarded-For here, X-Client-IP in the
  // rate limiter); from any other peer request.ip is the socket's address.
  const trusts = proxyTrust(config.trustProxy)
  const app = Fastify({
    loggerInstance: createLogger(config.logLevel, options.logStream) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    // request.log: bound to the request id, made when the request first writes a line
    childLoggerFactory: RequestLogger.factory as unknown as FastifyServerOptions['childLoggerFactory'],
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy.length > 0 ? trusts : false,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
    },
    // each route's validator and serialiser compiled on its first request, not at start
    schemaController: { compilersFactory: lazySchemaCompilers },
    ajv: {
      customOptions: { ...AJV_OPTIONS },
      // named examples of a body in /openapi.json, and the unit of a number (annotations:
      // validation ignores them; a refused number's message names its unit)
      plugins: [(ajv) => ajv.addKeyword({ keyword: 'x-examples' }).addKeyword({ keyword: 'x-unit' })],
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // A malformed URL escape or an over-long path parameter is refused by the router before
    // the error handler is reached: answer those in the error shape too.
    frameworkErrors: (err, request, reply) => sendError(err, request, reply),
    // …and bytes Node's HTTP parser refuses never become a request at all
    clientErrorHandler: answerClientError,
    // While draining, a request on a kept-alive connection answers our 503, not Fastify's body.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>()

  const services = await createServices(config, app.log)
  app.decorate('services', services)
  app.decorateRequest('principal', null)
  app.addHook('onClose', async () => services.close())
  // scheduled email reports: each instance polls once it serves (services.close stops it)
  app.addHook('onReady', async () => services.reportScheduler?.start(app.log))
  // rollups: each instance polls for due builds the same way
  app.addHook('onReady', async () => services.rollupScheduler?.start(app.log))

  installErrorHandling(app)
  installJsonBodyParsing(app)
  app.addSchema(ErrorResponse)
  // named schemas the document references (#/components/schemas/…); no route validates with them
  app.addSchema(DashboardDocumentSchema)
  for (const schema of DATASOURCE_COMPONENTS) app.addSchema(schema)

  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  // Hooks on every request are callback-style: an async hook costs a promise and a microtask turn
  // per request even when it has nothing to wait for (bench/README.md, the floors).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    if (closing) {
      reply.header('connection', 'close')
      return done(new ApiError('SERVICE_UNAVAILABLE', 503, 'The server is shutting down; retry on another instance'))
    }
    if (request.routeOptions.config.selfHostedOnly && !config.selfHosted) {
      return done(
        new ApiError('SELFHOSTED_APP_ERROR', 500, 'This operation is only available on a self-hosted instance'),
      )
    }
    done()
  })
  // One line per request, with its id; never headers or bodies, secrets in URLs redacted. Written
  // by the app's logger with the id as a field, the same line a request's child logger writes:
  // at the default level (info) every request logs it, and a pino child per request would cost
  // more than the line (a request that logs more makes its child as before).
  const accessLog = app.log as unknown as Logger
  app.addHook('onResponse', (request, reply, done) => {
    if (accessLog.isLevelEnabled('info')) {
      accessLog.info(
        {
          reqId: request.id,
          method: request.method,
          url: redactUrl(request.url),
          statusCode: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request',
      )
    }
    done()
  })

  // On the root, so that requests no route matches are counted too (see the plugin).
  await app.register(rateLimit, {
    rules: config.rateLimits,
    store: services.rateLimitStore,
    apiPrefix: `${config.basePath}/api/`,
    trusts,
  })
  await app.register(
    async (api) => {
      await api.register(swagger, {
        openapi: {
          openapi: '3.1.0',
          info: {
            title: 'Strata API',
            version: '2',
            description: 'Self-hosted embedded analytics. Errors are always `{ error: { code, message } }`.',
          },
          servers: [{ url: config.basePath || '/' }],
          components: {
            securitySchemes: {
              dataAppKey: { type: 'http', scheme: 'bearer', description: 'Data app API key (secret, backend only)' },
              serviceToken: { type: 'http', scheme: 'bearer', description: 'Organization service token' },
              adminToken: { type: 'http', scheme: 'bearer', description: 'Admin access token (JWT from sign-in)' },
              guestToken: { type: 'http', scheme: 'bearer', description: 'Guest token (browser)' },
            },
          },
        },
        refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
      })
      await api.register(swaggerUi, {
        routePrefix: '/docs',
        theme: { title: 'Strata API reference' },
        // No top bar: its Swagger logo is an SVG with an inline <style>, which the CSP refuses.
        uiConfig: { layout: 'BaseLayout', deepLinking: true, defaultModelsExpandDepth: 0 },
        staticCSP: true,
        // The OpenAPI document is never sent to validator.swagger.io, and a plain-http instance (a LAN
        // address) must not have its scripts upgraded to an https:// that does not answer.
        transformStaticCSP: (header) =>
          header
            .replace(' validator.swagger.io', '')
            .replace(/\s*upgrade-insecure-requests;?/, '')
            .trim(),
      })
      api.get('/openapi.json', { schema: { hide: true } }, async () => api.swagger())
      // every operation's error responses, from the route and its OperationDoc (schemas/openapi.ts)
      api.addHook('onRoute', documentFailures)

      await api.register(health)
      await api.register(adminAccount)
      await api.register(serviceToken)
      await api.register(dataApps)
      await api.register(dataAppEmbeds)
      await api.register(datasources)
      await api.register(datasourceFiles)
      await api.register(datamarts)
      await api.register(workspaces)
      await api.register(whitelistDomains)
      await api.register(dashboards)
      await api.register(embeds)
      await api.register(dashboardLists)
      await api.register(guestTokens)
      await api.register(metricQuery)
      await api.register(dataAppReports)
      await api.register(rollups)
      await api.register(embedRuntime, { prefix: '/api/v2/embed/runtime' })
      await api.register(demo)
      await api.register(studio)
      await api.register(studioPreviewToken)
      await api.register(studioTenants)
    },
    { prefix: config.basePath },
  )
  return app
}
