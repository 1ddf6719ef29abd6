import type { Command } from './args.js'
import { dataAppCommands } from './data-app-commands.js'
import { modelCommands } from './model-commands.js'
import { setupCommands } from './setup-commands.js'

/** Every command, in the order --help lists them (by group). */
export const GROUPS: readonly [string, Record<string, Command>][] = [
  ['Setup', setupCommands],
  ['Datasources, datamarts and workspaces (service token)', modelCommands],
  ['Dashboards, embeds and data app keys', dataAppCommands],
]

/** Every command by name. */
export const COMMANDS: Record<string, Command> = Object.assign({}, ...GROUPS.map(([, group]) => group))

/** A command by name (never an Object.prototype member); undefined when there is none. */
export const commandNamed = (name: string): Command | undefined =>
  Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
