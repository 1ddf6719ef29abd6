#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { CliError, cliEnv, type Options, type Values } from './cli/args.js'
import { Client, DEFAULT_URL } from './cli/client.js'
import { commandNamed } from './cli/commands.js'
import { commandHelp, mainHelp } from './cli/help.js'

/**
 * `strata …`: a thin HTTP client of a running server for every setup step of
 * docs/administration.md (the admin, a service token, a datasource and its sync, a datamart,
 * a workspace, a data app, a dashboard file, an embed, the whitelist, a guest token), the
 * list, update and delete of what they made, plus `strata serve` (the commands in
 * cli/setup-commands.ts, cli/model-commands.ts and cli/data-app-commands.ts, their help in
 * cli/help.ts). Each command prints its result on stdout (a token, a key, an id; a list one
 * item a line, tab-separated fields, the id first) so that scripts can capture it; `--json`
 * prints the whole response instead. Every failure prints `strata: CODE: message` on stderr
 * and exits 1; no token or key is echoed.
 */

const HELP: Options = { help: { type: 'boolean', short: 'h' } }
const COMMON: Options = {
  url: { type: 'string' },
  json: { type: 'boolean' },
}

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string }
    return pkg.version ?? 'unknown'
  } catch {
    return 'unknown'
  }
}

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' && rest[0] ? commandNamed(rest[0]) : undefined
    console.log(topic && rest[0] ? commandHelp(rest[0], topic) : mainHelp())
    return
  }
  if (name === '--version' || name === '-v') {
    console.log(version())
    return
  }
  const command = commandNamed(name)
  if (!command) throw new CliError('USAGE_ERROR', `unknown command "${name}"; see strata --help`)
  let values: Values
  try {
    const options: Options = name === 'serve' ? HELP : { ...COMMON, ...HELP, ...command.options }
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
