import { READ_ONLY_ACCESS } from '../schemas/read-only-access.js'
import {
  CliError,
  type Command,
  cliEnv,
  data,
  dataAppKey,
  integer,
  KEY,
  optional,
  putGiven,
  readDashboardFile,
  readJsonObject,
  required,
  serviceToken,
  TOKEN,
} from './args.js'
import { WORKSPACE_OPTIONS, warnings, workspaceBody } from './model-commands.js'

/**
 * The setup steps of docs/administration.md in order (the admin, a service token, a data app, a
 * datasource and its sync, a datamart, a workspace, an embed, the whitelist, a guest token, a
 * dashboard file), plus `strata serve`.
 */
export const setupCommands: Record<string, Command> = {
  serve: {
    summary: 'Start the server (configured by environment variables, see README)',
    usage: 'strata serve',
    options: {},
    async run() {
      await import('../main.js')
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
    options: { ...TOKEN, name: { type: 'string' } },
    async run(values, client) {
      const token = serviceToken(values)
      const response = await client.post('/api/v2/data-app', { name: required(values, 'name') }, token)
      client.print(response, response.key)
    },
  },
  'create-datasource': {
    summary: 'Create a datasource from a JSON file (the body of POST /api/v2/datasource); prints its id',
    usage:
      'strata create-datasource --service-token <token> --file <path>\n' +
      '  --file   a JSON object { "datasourceType": "postgres", "credentials": { "name", "host", … } }\n' +
      '           (see docs/administration.md); the connection is tested and the schema read',
    options: { ...TOKEN, file: { type: 'string' } },
    async run(values, client) {
      const token = serviceToken(values)
      const body = readJsonObject(required(values, 'file'))
      const response = await client.post('/api/v2/datasource', body, token)
      warnings(response)
      client.print(response, data(response).id)
    },
  },
  'sync-datasource': {
    summary: "Refresh a datasource's cached schema (after tables or columns change); prints the message",
    usage:
      'strata sync-datasource --service-token <token> --datasource-id <id or name>\n' +
      '  --datasource-id   the id printed by create-datasource, or the datasource name',
    options: { ...TOKEN, 'datasource-id': { type: 'string' } },
    async run(values, client) {
      const token = serviceToken(values)
      const body = { input: { datasourceId: required(values, 'datasource-id') } }
      const response = await client.post('/api/v2/datasource/sync', body, token)
      client.print(response, data(response).message)
    },
  },
  'create-datamart': {
    summary: 'Create a datamart from a JSON file (the body of POST /api/v2/data-app/datamarts); prints its id',
    usage:
      'strata create-datamart --service-token <token> --file <path> [--name <name>] [--datasource <name>]\n' +
      '  --file         a JSON object { "name", "datasourceName", "tableList": [ … ], "relationships": [ … ] }\n' +
      '  --name         the datamart name (overrides the file\'s "name")\n' +
      '  --datasource   the datasource name (overrides the file\'s "datasourceName")',
    options: {
      ...TOKEN,
      file: { type: 'string' },
      name: { type: 'string' },
      datasource: { type: 'string' },
    },
    async run(values, client) {
      const token = serviceToken(values)
      const body = readJsonObject(required(values, 'file'))
      putGiven(body, values, { name: 'name', datasource: 'datasourceName' })
      const response = await client.post('/api/v2/data-app/datamarts', body, token)
      client.print(response, response.id)
    },
  },
  'create-workspace': {
    summary: 'Create a workspace over a datamart or a datasource; prints its name',
    usage:
      'strata create-workspace --service-token <token> --name <name> (--datamart <name> | --datasource <name>)\n' +
      '                        [--connection-type DATAMART|DATASOURCE|MULTI_DATASOURCE] [--file <path>]\n' +
      '  --datamart          connectionType DATAMART over this datamart (the usual choice: tenancy lives there)\n' +
      '  --datasource        connectionType DATASOURCE over this datasource\n' +
      '  --connection-type   set it explicitly (default: from --datamart or --datasource)\n' +
      '  --file              a JSON object with the whole body (POST /api/v2/workspace); flags override it',
    options: WORKSPACE_OPTIONS,
    async run(values, client) {
      const token = serviceToken(values)
      const response = await client.post('/api/v2/workspace', workspaceBody(values), token)
      client.print(response, data(response).name)
    },
  },
  'create-embed': {
    summary: "Create an embed of a dashboard (or one metric) with the data app's key; prints its id",
    usage:
      'strata create-embed --data-app-key <key> --dashboard-id <id> --workspace <name> --name <name>\n' +
      '                    (--datamart <name> | --access-file <path>) [--embed-type dashboard|metric] [--metric-id <id>]\n' +
      '  --datamart      the datamart the embed reads (accessSettings.datamartName)\n' +
      '  --access-file   a JSON object: the whole accessSettings; --datamart overrides its datamartName\n' +
      '  --embed-type    dashboard (default) or metric (then --metric-id is required)\n' +
      '  Without --access-file, accessSettings are these read-only defaults (plus datamartName):\n' +
      JSON.stringify(READ_ONLY_ACCESS, null, 2).replace(/^/gm, '    '),
    options: {
      ...KEY,
      'dashboard-id': { type: 'string' },
      workspace: { type: 'string' },
      name: { type: 'string' },
      datamart: { type: 'string' },
      'access-file': { type: 'string' },
      'embed-type': { type: 'string' },
      'metric-id': { type: 'string' },
    },
    async run(values, client) {
      const key = dataAppKey(values)
      const accessFile = optional(values, 'access-file')
      const datamart = optional(values, 'datamart')
      if (accessFile === undefined && datamart === undefined) {
        throw new CliError('USAGE_ERROR', '--datamart (or --access-file) is required')
      }
      const accessSettings: Record<string, unknown> =
        accessFile === undefined ? { ...READ_ONLY_ACCESS } : readJsonObject(accessFile)
      if (datamart !== undefined) accessSettings.datamartName = datamart
      const body: Record<string, unknown> = {
        dashboardId: required(values, 'dashboard-id'),
        embedType: optional(values, 'embed-type') ?? 'dashboard',
        workspaceName: required(values, 'workspace'),
        name: required(values, 'name'),
        accessSettings,
      }
      putGiven(body, values, { 'metric-id': 'metricId' })
      const response = await client.post('/api/v2/data-app/embeds', body, key)
      client.print(response, response.id)
    },
  },
  'set-whitelist-domains': {
    summary: "Replace the data app's allowed embed origins (CORS); prints them, one a line",
    usage:
      'strata set-whitelist-domains --data-app-key <key> --domain <domain> [--domain <domain> …] | --clear\n' +
      '  --domain   an origin allowed to load the embeds: app.example.com, *.customer.com, localhost:3000\n' +
      '  --clear    allow none (an empty list)',
    options: {
      ...KEY,
      domain: { type: 'string', multiple: true },
      clear: { type: 'boolean' },
    },
    async run(values, client) {
      const key = dataAppKey(values)
      const domains = Array.isArray(values.domain) ? values.domain : []
      if (domains.length === 0 && values.clear !== true) {
        throw new CliError('USAGE_ERROR', '--domain is required (repeat it for several; --clear allows none)')
      }
      if (domains.length > 0 && values.clear === true) {
        throw new CliError('USAGE_ERROR', '--clear and --domain exclude each other')
      }
      const response = await client.put('/api/v2/data-app/whitelist-domains', { domains }, key)
      const list = Array.isArray(response.data) ? response.data : []
      client.printLines(response, list)
    },
  },
  'create-guest-token': {
    summary: 'Mint a guest token for one end user (for testing an embed); prints the token',
    usage:
      'strata create-guest-token --data-app-key <key> --data-app <name> --client-id <tenant>\n' +
      '                          [--embed <id> …] [--params-file <path>] [--permissions-file <path>] [--expiry <ms>]\n' +
      "  --data-app           the data app's name (dataAppName)\n" +
      '  --client-id          the tenant: rows are limited to its value of the tenant column\n' +
      '  --embed              an embed (or dashboard) id the token may load (params.allowedEmbeds);\n' +
      '                       repeat it for several; without it, every embed of the data app\n' +
      '  --params-file        a JSON object: params (rlsSettings, appFilters, allowedEmbeds, timezone, …)\n' +
      '  --permissions-file   a JSON object: permissions (isEnableUnderlyingData, …)\n' +
      '  --expiry             lifetime in milliseconds (expiryTime), at least 1000',
    options: {
      ...KEY,
      'data-app': { type: 'string' },
      'client-id': { type: 'string' },
      embed: { type: 'string', multiple: true },
      'params-file': { type: 'string' },
      'permissions-file': { type: 'string' },
      expiry: { type: 'string' },
    },
    async run(values, client) {
      const key = dataAppKey(values)
      const body: Record<string, unknown> = {
        dataAppName: required(values, 'data-app'),
        clientId: required(values, 'client-id'),
      }
      const params = optional(values, 'params-file')
      const permissions = optional(values, 'permissions-file')
      const expiry = integer(values, 'expiry')
      if (params !== undefined) body.params = readJsonObject(params)
      const embeds = Array.isArray(values.embed) ? values.embed : []
      if (embeds.length > 0) body.params = { ...(body.params as object | undefined), allowedEmbeds: embeds }
      if (permissions !== undefined) body.permissions = readJsonObject(permissions)
      if (expiry !== undefined) body.expiryTime = expiry
      const response = await client.post('/api/v2/guest-token/create', body, key)
      client.print(response, response.token)
    },
  },
  'apply-dashboard': {
    summary:
      'Create or update a dashboard from a file (a dashboard document or an export); prints its id. --dry-run validates only',
    usage:
      'strata apply-dashboard --service-token <token> --workspace <name> --file <path>\n' +
      '                       [--dashboard-id <id>] [--dashboard-name <name>] [--dry-run]',
    options: {
      ...TOKEN,
      workspace: { type: 'string' },
      file: { type: 'string' },
      'dashboard-id': { type: 'string' },
      'dashboard-name': { type: 'string' },
      'dry-run': { type: 'boolean' },
    },
    async run(values, client) {
      const token = serviceToken(values)
      const workspaceName = required(values, 'workspace')
      const document = readDashboardFile(required(values, 'file'))
      const body: Record<string, unknown> = { workspaceName, importDashboardData: document }
      const dashboardId = optional(values, 'dashboard-id')
      if (dashboardId !== undefined) body.dashboardId = dashboardId
      if (typeof values['dashboard-name'] === 'string') body.dashboardName = values['dashboard-name']
      if (values['dry-run'] === true) {
        // every metric compiled and run with no rows; nothing saved
        const response = await client.post('/api/v2/data-app/validate-dashboard', body, token)
        const result = data(response) as { valid?: unknown; metrics?: { metricId: string; error?: string }[] }
        client.printLines(
          response,
          (result.metrics ?? []).map((m) =>
            m.error === undefined ? `${m.metricId}: ok` : `${m.metricId}: ${m.error}`,
          ),
        )
        if (result.valid !== true) process.exitCode = 1
        return
      }
      let response: Record<string, unknown>
      try {
        response = await client.post('/api/v2/data-app/import-dashboard', body, token)
      } catch (err) {
        // the id exists: replace the document in place (docs/api.md#dashboards-as-code)
        if (!(dashboardId !== undefined && err instanceof CliError && /already exists/.test(err.message))) throw err
        response = await client.put('/api/v2/data-app/dashboard', { ...body, dashboardId }, token)
      }
      const result = data(response).response as { dashboardId?: unknown } | undefined
      client.print(response, result?.dashboardId ?? JSON.stringify(response))
    },
  },
}
