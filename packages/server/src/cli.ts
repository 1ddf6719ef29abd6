#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import { type ParseArgsConfig, parseArgs } from 'node:util'

/**
 * `strata …`: a thin HTTP client of a running server for the administration flow of
 * DESIGN.md §2.1 (create the admin, a service token, a data app; apply a dashboard file),
 * plus `strata serve`. Each command prints its one result on stdout (a token, a key, an
 * id) so that scripts can capture it; `--json` prints the whole response instead. Every
 * failure prints `strata: CODE: message` on stderr and exits 1.
 */

type Options = NonNullable<ParseArgsConfig['options']>
type Values = Record<string, string | boolean | undefined>

interface Command {
  readonly summary: string
  readonly usage: string
  readonly options: Options
  run(values: Values, client: Client): Promise<void>
}

class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

const DEFAULT_URL = 'http://127.0.0.1:8080'
const REQUEST_TIMEOUT_MS = 30_000

/** The CLI's own environment, read in this one place. */
const cliEnv = {
  url: process.env.STRATA_URL,
  serviceToken: process.env.STRATA_SERVICE_TOKEN,
  password: process.env.STRATA_PASSWORD,
}

const COMMON: Options = {
  url: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
}

class Client {
  constructor(
    readonly baseUrl: string,
    readonly json: boolean,
  ) {}

  /** POSTs JSON; answers the parsed body of a 200, else throws the server's error. */
  async post(path: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
    const url = `${this.baseUrl}${path}`
    let res: Response
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      })
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause
      const reason = cause?.code ?? cause?.message ?? (err as Error).message
      throw new CliError('CONNECTION_ERROR', `cannot reach ${this.baseUrl} (${reason}); is the server running?`)
    }
    const text = await res.text()
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw new CliError(`HTTP_${res.status}`, `${url} answered something other than JSON`)
    }
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error
    if (!res.ok || (error && typeof error === 'object')) {
      throw new CliError(
        String(error?.code ?? `HTTP_${res.status}`),
        String(error?.message ?? `${url} answered ${res.status}`),
      )
    }
    return parsed as Record<string, unknown>
  }

  /** Prints `value` alone, or the whole response with --json. */
  print(response: unknown, value: unknown): void {
    console.log(this.json ? JSON.stringify(response, null, 2) : String(value))
  }
}

function required(values: Values, name: string, fallback?: string): string {
  const value = values[name]
  if (typeof value === 'string' && value !== '') return value
  if (fallback) return fallback
  throw new CliError('USAGE_ERROR', `--${name} is required`)
}

function integer(values: Values, name: string): number | undefined {
  const raw = values[name]
  if (raw === undefined) return undefined
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw new CliError('USAGE_ERROR', `--${name} must be a number`)
  return Number(raw)
}

const data = (body: Record<string, unknown>): Record<string, unknown> => (body.data ?? {}) as Record<string, unknown>

const COMMANDS: Record<string, Command> = {
  serve: {
    summary: 'Start the server (configured by environment variables, see README)',
    usage: 'strata serve',
    options: {},
    async run() {
      await import('./main.js')
    },
  },
  'create-admin': {
    summary: 'Create the admin account (only while none exists); prints an access token',
    usage: 'strata create-admin --email <email> --password <password> --first-name <name> --company <name>',
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      company: { type: 'string' },
    },
    async run(values, client) {
      const body = {
        firstName: required(values, 'first-name'),
        email: required(values, 'email'),
        password: required(values, 'password', cliEnv.password),
        companyName: required(values, 'company'),
      }
      const response = await client.post('/api/v2/admin-account', body)
      client.print(response, data(response).accessToken)
    },
  },
  'service-token': {
    summary: "Sign in and create the organization's service token (replacing the current one); prints it",
    usage:
      'strata service-token --email <email> --password <password> [--token <guid>] [--grace <seconds>]\n' +
      '  --token   use this GUID as the token instead of a generated one\n' +
      '  --grace   rotate instead: the current token keeps working this many seconds (0 = revoke now)',
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      token: { type: 'string' },
      grace: { type: 'string' },
    },
    async run(values, client) {
      const grace = integer(values, 'grace')
      const token = typeof values.token === 'string' ? values.token : undefined
      const session = await client.post('/api/v2/admin-account/jwt', {
        email: required(values, 'email'),
        password: required(values, 'password', cliEnv.password),
      })
      const accessToken = String(data(session).accessToken)
      const response =
        grace === undefined
          ? await client.post('/api/v2/service-token', { token }, accessToken)
          : await client.post('/api/v2/service-token/rotate', { token, expireAt: grace }, accessToken)
      client.print(response, response.key)
    },
  },
  'create-data-app': {
    summary: 'Create a data app; prints its first API key (shown once)',
    usage: 'strata create-data-app --service-token <token> --name <alphanumeric name>',
    options: { 'service-token': { type: 'string' }, name: { type: 'string' } },
    async run(values, client) {
      const token = required(values, 'service-token', cliEnv.serviceToken)
      const response = await client.post('/api/v2/data-app', { name: required(values, 'name') }, token)
      client.print(response, response.key)
    },
  },
  'apply-dashboard': {
    summary: 'Import a dashboard file (a dashboard document or an export) into a workspace; prints its id',
    usage:
      'strata apply-dashboard --service-token <token> --workspace <name> --file <path>\n' +
      '                       [--dashboard-id <id>] [--dashboard-name <name>]',
    options: {
      'service-token': { type: 'string' },
      workspace: { type: 'string' },
      file: { type: 'string' },
      'dashboard-id': { type: 'string' },
      'dashboard-name': { type: 'string' },
    },
    async run(values, client) {
      const token = required(values, 'service-token', cliEnv.serviceToken)
      const workspaceName = required(values, 'workspace')
      const document = readDashboardFile(required(values, 'file'))
      const body: Record<string, unknown> = { workspaceName, importDashboardData: document }
      if (typeof values['dashboard-id'] === 'string') body.dashboardId = values['dashboard-id']
      if (typeof values['dashboard-name'] === 'string') body.dashboardName = values['dashboard-name']
      const response = await client.post('/api/v2/data-app/import-dashboard', body, token)
      const result = data(response).response as { dashboardId?: unknown } | undefined
      client.print(response, result?.dashboardId ?? JSON.stringify(response))
    },
  },
}

/** A dashboard document (DESIGN.md §2.2), or an export `{ _meta, data }` whose `data` is one. */
function readDashboardFile(path: string): Record<string, unknown> {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new CliError('FILE_ERROR', `cannot read ${path} (${(err as { code?: string }).code ?? 'error'})`)
  }
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch {
    throw new CliError('FILE_ERROR', `${path} is not valid JSON`)
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new CliError('FILE_ERROR', `${path} must hold a JSON object`)
  }
  const exported = document as { _meta?: unknown; data?: unknown }
  if (exported._meta !== undefined && exported.data && typeof exported.data === 'object') {
    return exported.data as Record<string, unknown>
  }
  return document as Record<string, unknown>
}

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string }
    return pkg.version ?? 'unknown'
  } catch {
    return 'unknown'
  }
}

function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length))
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`)
  return [
    'Usage: strata <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Options of every client command:',
    `  --url <url>   the server (default: $STRATA_URL, else ${DEFAULT_URL})`,
    '  --json        print the whole JSON response instead of the bare value',
    '  -h, --help    this help, or a command\'s with "strata <command> --help"',
    '',
    'Secrets may come from the environment instead of the command line:',
    '  STRATA_PASSWORD (--password), STRATA_SERVICE_TOKEN (--service-token).',
  ].join('\n')
}

const commandHelp = (name: string, command: Command): string =>
  `${command.summary}\n\nUsage: ${command.usage}${name === 'serve' ? '' : ' [--url <url>] [--json]'}`

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' && rest[0] && Object.hasOwn(COMMANDS, rest[0]) ? COMMANDS[rest[0]] : undefined
    console.log(topic && rest[0] ? commandHelp(rest[0], topic) : mainHelp())
    return
  }
  if (name === '--version' || name === '-v') {
    console.log(version())
    return
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
  if (!command) throw new CliError('USAGE_ERROR', `unknown command "${name}"; see strata --help`)
  let values: Values
  try {
    const options: Options =
      name === 'serve' ? { help: { type: 'boolean', short: 'h' } } : { ...COMMON, ...command.options }
    values = parseArgs({ args: rest, options, strict: true, allowPositionals: false }).values as Values
  } catch (err) {
    throw new CliError('USAGE_ERROR', `${(err as Error).message}; see strata ${name} --help`)
  }
  if (values.help) {
    console.log(commandHelp(name, command))
    return
  }
  const baseUrl = (typeof values.url === 'string' ? values.url : (cliEnv.url ?? DEFAULT_URL)).replace(/\/+$/, '')
  try {
    new URL(baseUrl)
  } catch {
    throw new CliError('USAGE_ERROR', `--url must be a URL, got "${baseUrl}"`)
  }
  await command.run(values, new Client(baseUrl, values.json === true))
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof CliError) {
    console.error(`strata: ${err.code}: ${err.message}`)
  } else {
    console.error(`strata: INTERNAL_ERROR: ${err instanceof Error ? err.message : String(err)}`)
  }
  process.exitCode = 1
})
