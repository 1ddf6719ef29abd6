import type { Command } from './args.js'
import { DEFAULT_URL } from './client.js'
import { COMMANDS, GROUPS } from './commands.js'

/** The help screens: `strata --help` (every command by group) and `strata <command> --help`. */

/** The options every client command takes besides its own (`strata serve` takes none). */
const COMMON_OPTION_LINES = [
  `  --url <url>   the server (default: $STRATA_URL, else ${DEFAULT_URL})`,
  "  --json        print the whole JSON response instead of the bare value (or a list's rows)",
]

export function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length))
  const lines = GROUPS.flatMap(([title, group]) => [
    '',
    `${title}:`,
    ...Object.entries(group).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
  ])
  return [
    'Usage: strata <command> [options]',
    ...lines,
    '',
    'Options of every client command:',
    ...COMMON_OPTION_LINES,
    '  -h, --help    this help, or a command\'s with "strata <command> --help"',
    '',
    'Secrets may come from the environment instead of the command line:',
    '  STRATA_PASSWORD (--password), STRATA_SERVICE_TOKEN (--service-token),',
    '  STRATA_DATA_APP_KEY (--data-app-key).',
  ].join('\n')
}

export function commandHelp(name: string, command: Command): string {
  const common = name === 'serve' ? '' : ['', '', 'Common options:', ...COMMON_OPTION_LINES].join('\n')
  return `${command.summary}\n\nUsage: ${command.usage}${common}`
}
