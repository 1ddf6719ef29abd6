import { buildApp } from './app.js'
import { ConfigError, parseConfig } from './config.js'
import { flushLog } from './logger.js'
import { DEMO, seedDemo } from './services/demo/seed.js'

/** Process entry: parse config once, start, drain on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = parseConfig(process.env)
  const app = await buildApp(config)
  // Log lines are written asynchronously (docs/operations.md#logging): every way out writes out
  // what is buffered first.
  const exit = (code: number) => {
    void flushLog(app.log).finally(() => process.exit(code))
  }
  // An error nothing caught (a rejection nobody handled arrives here too, as Node's default
  // `--unhandled-rejections=throw` makes it one): the process is in an unknown state, so it logs
  // the error, writes out the log and exits 1 for its supervisor to restart it.
  let failed = false
  process.on('uncaughtException', (err, origin) => {
    if (failed) return
    failed = true
    app.log.fatal({ err, origin }, 'fatal error; exiting')
    exit(1)
  })
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    app.log.info({ signal }, 'shutting down: refusing new connections, draining in-flight requests')
    const force = setTimeout(() => {
      app.log.error({ timeoutMs: config.shutdownTimeoutMs }, 'drain timed out; forcing exit')
      exit(1)
    }, config.shutdownTimeoutMs)
    force.unref()
    app.close().then(
      () => {
        app.log.info('stopped')
        exit(0)
      },
      (err: unknown) => {
        app.log.error({ err }, 'error while stopping')
        exit(1)
      },
    )
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))

  await app.ready()
  await bootstrapAdmin(app, config)
  const seeded = config.demo ? await seedDemo(app.services, app.log) : undefined
  const address = await app.listen({ port: config.port, host: config.host })
  app.log.info({ address: `${address}${config.basePath}`, store: app.services.store.kind }, 'Strata is ready')
  if (config.demo) {
    // Printed to the terminal, never to the log: the key is shown once.
    const lines = [`\n  Strata demo: ${address}${config.basePath}/demo`]
    if (seeded?.key) lines.push(`  Demo data app "${DEMO.dataApp}" API key (shown once): ${seeded.key}`)
    process.stderr.write(`${lines.join('\n')}\n\n`)
  }
}

async function bootstrapAdmin(app: Awaited<ReturnType<typeof buildApp>>, config: ReturnType<typeof parseConfig>) {
  const { adminEmail, adminPassword } = config
  if (!adminEmail || !adminPassword || (await app.services.admin.exists())) return
  await app.services.admin.create({
    firstName: 'Admin',
    email: adminEmail,
    password: adminPassword,
    companyName: 'Strata',
  })
  app.log.info('created the admin account from ADMIN_EMAIL/ADMIN_PASSWORD')
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(`strata: configuration error: ${err.message}`)
  } else {
    console.error('strata: failed to start', err)
  }
  process.exit(1)
})
