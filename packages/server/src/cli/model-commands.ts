import {
  CliError,
  type Command,
  data,
  items,
  optional,
  putGiven,
  readJsonObject,
  required,
  serviceToken,
  TOKEN,
  type Values,
} from './args.js'
import type { Client } from './client.js'

/** List, update and delete of datasources, datamarts and workspaces (service token). */

/** A response's warnings (e.g. a datasource whose introspection found no table), on stderr. */
export function warnings(response: Record<string, unknown>): void {
  const body = data(response)
  const found = [response.warning, response.warnings, body.warning, body.warnings].flat()
  for (const warning of found) {
    if (typeof warning === 'string' && warning !== '') console.error(`strata: warning: ${warning}`)
    else if (warning && typeof warning === 'object' && 'message' in warning) {
      console.error(`strata: warning: ${String((warning as { message: unknown }).message)}`)
    }
  }
}

/** The body of POST and PUT /api/v2/workspace from create-workspace's and update-workspace's flags. */
export function workspaceBody(values: Values): Record<string, unknown> {
  const file = optional(values, 'file')
  const body: Record<string, unknown> = file === undefined ? {} : readJsonObject(file)
  const datamart = optional(values, 'datamart')
  const datasource = optional(values, 'datasource')
  putGiven(body, values, { name: 'name', datamart: 'datamartName', datasource: 'datasourceName' })
  const type = optional(values, 'connection-type')
  if (type !== undefined) body.connectionType = type
  else if (body.connectionType === undefined && datamart !== undefined) body.connectionType = 'DATAMART'
  else if (body.connectionType === undefined && datasource !== undefined) body.connectionType = 'DATASOURCE'
  if (body.name === undefined) throw new CliError('USAGE_ERROR', '--name is required')
  if (body.connectionType === undefined) {
    throw new CliError('USAGE_ERROR', '--datamart, --datasource or --connection-type is required')
  }
  return body
}

export const WORKSPACE_OPTIONS = {
  ...TOKEN,
  name: { type: 'string' },
  datamart: { type: 'string' },
  datasource: { type: 'string' },
  'connection-type': { type: 'string' },
  file: { type: 'string' },
} as const

/** Prints the `id` a delete answers. */
async function deleted(client: Client, path: string, query: Record<string, string>, token: string): Promise<void> {
  const response = await client.delete(path, query, token)
  client.print(response, response.id)
}

export const modelCommands: Record<string, Command> = {
  'list-datasources': {
    summary: 'List the datasources: name, type, created (GET /api/v2/datasource)',
    usage: 'strata list-datasources --service-token <token>',
    options: TOKEN,
    async run(values, client) {
      const response = await client.get('/api/v2/datasource', {}, serviceToken(values))
      client.printRows(
        response,
        items(response).map((d) => [d.name, d.datasourceType, d.createdAt]),
      )
    },
  },
  'update-datasource': {
    summary: 'Replace a datasource from a JSON file (PUT /api/v2/datasource); prints its id',
    usage:
      'strata update-datasource --service-token <token> --file <path>\n' +
      "  --file   create-datasource's file: credentials.name names the datasource to replace;\n" +
      '           the connection is tested and the schema read again',
    options: { ...TOKEN, file: { type: 'string' } },
    async run(values, client) {
      const token = serviceToken(values)
      const response = await client.put('/api/v2/datasource', readJsonObject(required(values, 'file')), token)
      warnings(response)
      client.print(response, data(response).id)
    },
  },
  'delete-datasource': {
    summary: 'Delete a datasource no datamart or workspace uses (DELETE /api/v2/datasource); prints its id',
    usage: 'strata delete-datasource --service-token <token> --name <datasource name>',
    options: { ...TOKEN, name: { type: 'string' } },
    async run(values, client) {
      await deleted(client, '/api/v2/datasource', { name: required(values, 'name') }, serviceToken(values))
    },
  },
  'list-datamarts': {
    summary: 'List the datamarts: name, datasource, created (GET /api/v2/data-app/datamarts)',
    usage:
      'strata list-datamarts --service-token <token>\n  --json   the whole list, tables and relationships included',
    options: TOKEN,
    async run(values, client) {
      const query = { expandDetails: client.json ? 'true' : 'false' }
      const response = await client.get('/api/v2/data-app/datamarts', query, serviceToken(values))
      client.printRows(
        response,
        items(response).map((d) => [d.name, (d.companyIntegration as { name?: unknown } | null)?.name, d.createdAt]),
      )
    },
  },
  'update-datamart': {
    summary:
      "Replace a datamart's tables and relationships from a JSON file (PUT /api/v2/data-app/datamarts); prints its id",
    usage:
      'strata update-datamart --service-token <token> --file <path> [--name <name>]\n' +
      '  --file   a JSON object { "datamartName", "tableList": [ … ], "relationships": [ … ], "tenancySettings"? };\n' +
      '           create-datamart\'s file works too: its "name" is the datamartName, its "datasourceName" is left out\n' +
      '  --name   the datamart to replace (overrides the file\'s "datamartName")',
    options: { ...TOKEN, file: { type: 'string' }, name: { type: 'string' } },
    async run(values, client) {
      const token = serviceToken(values)
      const body = readJsonObject(required(values, 'file'))
      if (body.datamartName === undefined && body.name !== undefined) body.datamartName = body.name
      delete body.name
      delete body.datasourceName
      putGiven(body, values, { name: 'datamartName' })
      if (body.datamartName === undefined) throw new CliError('USAGE_ERROR', '--name is required')
      const response = await client.put('/api/v2/data-app/datamarts', body, token)
      client.print(response, response.id)
    },
  },
  'delete-datamart': {
    summary: 'Delete a datamart no workspace uses (DELETE /api/v2/data-app/datamart); prints its name',
    usage: 'strata delete-datamart --service-token <token> --name <datamart name>',
    options: { ...TOKEN, name: { type: 'string' } },
    async run(values, client) {
      const query = { datamartName: required(values, 'name') }
      await deleted(client, '/api/v2/data-app/datamart', query, serviceToken(values))
    },
  },
  'list-workspaces': {
    summary: 'List the workspaces: name, connection type, datamart, datasource, created (GET /api/v2/workspace)',
    usage: 'strata list-workspaces --service-token <token>',
    options: TOKEN,
    async run(values, client) {
      const response = await client.get('/api/v2/workspace', {}, serviceToken(values))
      client.printRows(
        response,
        items(response).map((w) => [w.name, w.connectionType, w.datamartName, w.datasourceName, w.createdAt]),
      )
    },
  },
  'update-workspace': {
    summary: 'Update the workspace --name names (PUT /api/v2/workspace, the create body); prints its name',
    usage:
      'strata update-workspace --service-token <token> --name <name> (--datamart <name> | --datasource <name>)\n' +
      '                        [--connection-type DATAMART|DATASOURCE|MULTI_DATASOURCE] [--file <path>]\n' +
      "  the flags of create-workspace; the body replaces the workspace's settings",
    options: WORKSPACE_OPTIONS,
    async run(values, client) {
      const token = serviceToken(values)
      const response = await client.put('/api/v2/workspace', workspaceBody(values), token)
      client.print(response, data(response).name)
    },
  },
  'delete-workspace': {
    summary: 'Delete a workspace that holds no dashboard (DELETE /api/v2/workspace); prints its name',
    usage: 'strata delete-workspace --service-token <token> --name <workspace name>',
    options: { ...TOKEN, name: { type: 'string' } },
    async run(values, client) {
      await deleted(client, '/api/v2/workspace', { name: required(values, 'name') }, serviceToken(values))
    },
  },
}
