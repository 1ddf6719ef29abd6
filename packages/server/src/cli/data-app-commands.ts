import {
  CliError,
  type Command,
  dataAppKey,
  items,
  KEY,
  optional,
  putGiven,
  readJsonObject,
  required,
  serviceToken,
  TOKEN,
} from './args.js'

/** Dashboards (export, delete, list), embeds (list, update, delete) and data app API keys. */

export const dataAppCommands: Record<string, Command> = {
  'list-dashboards': {
    summary: "List the data app's embedded dashboards: dashboard id, name, embed id (GET /api/v2/data-app/dashboards)",
    usage:
      'strata list-dashboards --data-app-key <key> [--name <dashboard name> …]\n' +
      '  --name   only the dashboards of this name; repeat it for several',
    options: { ...KEY, name: { type: 'string', multiple: true } },
    async run(values, client) {
      const key = dataAppKey(values)
      const names = Array.isArray(values.name) ? values.name : []
      const query = {
        isPagination: 'false',
        pageNumber: '1',
        dashboardNames: names.length > 0 ? names.join(',') : undefined,
      }
      const response = await client.get('/api/v2/data-app/dashboards', query, key)
      client.printRows(
        response,
        items(response).map((d) => [d.externalDashboardId, d.name, d.embedId]),
      )
    },
  },
  'export-dashboard': {
    summary:
      'Print a dashboard as a JSON file that apply-dashboard reads back (POST /api/v2/data-app/export-dashboard)',
    usage: 'strata export-dashboard --service-token <token> --workspace <name> --dashboard-id <id> > dashboard.json',
    options: { ...TOKEN, workspace: { type: 'string' }, 'dashboard-id': { type: 'string' } },
    async run(values, client) {
      const token = serviceToken(values)
      const body = { workspaceName: required(values, 'workspace'), dashboardId: required(values, 'dashboard-id') }
      const response = await client.post('/api/v2/data-app/export-dashboard', body, token)
      console.log(JSON.stringify(response, null, 2))
    },
  },
  'delete-dashboard': {
    summary: 'Delete a dashboard no embed uses (DELETE /api/v2/data-app/dashboard); prints its id',
    usage: 'strata delete-dashboard --service-token <token> --workspace <name> --dashboard-id <id>',
    options: { ...TOKEN, workspace: { type: 'string' }, 'dashboard-id': { type: 'string' } },
    async run(values, client) {
      const token = serviceToken(values)
      const query = { workspaceName: required(values, 'workspace'), dashboardId: required(values, 'dashboard-id') }
      const response = await client.delete('/api/v2/data-app/dashboard', query, token)
      client.print(response, response.id)
    },
  },
  'list-embeds': {
    summary: "List the data app's embeds: embed id, type, name, dashboard id, metric id (GET /api/v2/data-app/embeds)",
    usage:
      'strata list-embeds --data-app-key <key> [--client-id <tenant>]\n' +
      '  --client-id   only the dashboard embeds whose dashboard was created for this client',
    options: { ...KEY, 'client-id': { type: 'string' } },
    async run(values, client) {
      const key = dataAppKey(values)
      const response = await client.get('/api/v2/data-app/embeds', { clientId: optional(values, 'client-id') }, key)
      client.printRows(
        response,
        items(response).map((e) => {
          const meta = (e.embedMetadata ?? {}) as Record<string, unknown>
          return [e.embedId, e.embedType, e.name, meta.dashboardId, meta.metricId]
        }),
      )
    },
  },
  'update-embed': {
    summary:
      "Change an embed's access settings or workspace (PUT /api/v2/data-app/embeds), or rename it; prints its id",
    usage:
      'strata update-embed --data-app-key <key> --embed-id <id>\n' +
      '                    [--access-file <path>] [--datamart <name>] [--workspace <name>] [--name <name> [--rename-dashboard]]\n' +
      '  --access-file        a JSON object: the accessSettings fields to change (the others keep their values)\n' +
      '  --datamart           accessSettings.datamartName\n' +
      '  --workspace          move the embed to this workspace (workspaceName)\n' +
      '  --name               rename the embed (PUT /api/v2/data-app/embeds/rename)\n' +
      '  --rename-dashboard   with --name: rename its dashboard too',
    options: {
      ...KEY,
      'embed-id': { type: 'string' },
      'access-file': { type: 'string' },
      datamart: { type: 'string' },
      workspace: { type: 'string' },
      name: { type: 'string' },
      'rename-dashboard': { type: 'boolean' },
    },
    async run(values, client) {
      const key = dataAppKey(values)
      const embedId = required(values, 'embed-id')
      const accessFile = optional(values, 'access-file')
      const datamart = optional(values, 'datamart')
      const workspace = optional(values, 'workspace')
      const name = optional(values, 'name')
      if (accessFile === undefined && datamart === undefined && workspace === undefined && name === undefined) {
        throw new CliError('USAGE_ERROR', '--access-file, --datamart, --workspace or --name is required')
      }
      if (values['rename-dashboard'] === true && name === undefined) {
        throw new CliError('USAGE_ERROR', '--rename-dashboard needs --name')
      }
      let response: Record<string, unknown> | undefined
      if (accessFile !== undefined || datamart !== undefined || workspace !== undefined) {
        const accessSettings = accessFile === undefined ? {} : readJsonObject(accessFile)
        if (datamart !== undefined) accessSettings.datamartName = datamart
        const body: Record<string, unknown> = { embedId, accessSettings }
        if (workspace !== undefined) body.workspaceName = workspace
        response = await client.put('/api/v2/data-app/embeds', body, key)
      }
      if (name !== undefined) {
        const body = { embedId, name, isRenameDashboard: values['rename-dashboard'] === true }
        response = await client.put('/api/v2/data-app/embeds/rename', body, key)
      }
      client.print(response, response?.id)
    },
  },
  'delete-embed': {
    summary: 'Delete an embed; its guest tokens stop at once (DELETE /api/v2/data-app/embeds); prints its id',
    usage:
      'strata delete-embed --data-app-key <key> --embed-id <id> [--delete-dashboard]\n' +
      '  --delete-dashboard   delete its dashboard too (only one created through the API that no other embed uses)',
    options: { ...KEY, 'embed-id': { type: 'string' }, 'delete-dashboard': { type: 'boolean' } },
    async run(values, client) {
      const key = dataAppKey(values)
      const query = {
        embedId: required(values, 'embed-id'),
        isDeleteDashboard: values['delete-dashboard'] === true ? 'true' : undefined,
      }
      const response = await client.delete('/api/v2/data-app/embeds', query, key)
      client.print(response, response.id)
    },
  },
  'list-keys': {
    summary: "List a data app's API keys: key id (sk_…, not the secret), name, description, created",
    usage: 'strata list-keys --service-token <token> --data-app <name>',
    options: { ...TOKEN, 'data-app': { type: 'string' } },
    async run(values, client) {
      const token = serviceToken(values)
      const query = { dataAppName: required(values, 'data-app') }
      const response = await client.get('/api/v2/data-app/api-tokens', query, token)
      client.printRows(
        response,
        items(response).map((k) => [k.key, k.name, k.description, k.createdAt]),
      )
    },
  },
  'create-key': {
    summary: 'Create another API key of a data app (POST /api/v2/data-app/api-tokens); prints it (shown once)',
    usage:
      'strata create-key --service-token <token> --data-app <name> --name <key name> [--description <text>]\n' +
      '  To rotate a key: create-key, give the new key to your backend, then delete-key the old one.',
    options: { ...TOKEN, 'data-app': { type: 'string' }, name: { type: 'string' }, description: { type: 'string' } },
    async run(values, client) {
      const token = serviceToken(values)
      const body: Record<string, unknown> = {
        dataAppName: required(values, 'data-app'),
        name: required(values, 'name'),
      }
      putGiven(body, values, { description: 'description' })
      const response = await client.post('/api/v2/data-app/api-tokens', body, token)
      client.print(response, response.key)
    },
  },
  'delete-key': {
    summary:
      'Revoke an API key at once, with every guest token it minted (DELETE /api/v2/data-app/api-tokens); prints its id',
    usage:
      'strata delete-key --service-token <token> --data-app <name> --key <sk_id>\n' +
      '  --key   the key id that list-keys prints (sk_ and 12 hex digits); the whole secret key works too',
    options: { ...TOKEN, 'data-app': { type: 'string' }, key: { type: 'string' } },
    async run(values, client) {
      const token = serviceToken(values)
      // the key id is the secret's first part (sk_ and 12 hex digits); the secret is never sent
      const given = required(values, 'key')
      const key = /^(sk_[0-9a-f]{12})_/.exec(given)?.[1] ?? given
      const query = { dataAppName: required(values, 'data-app'), key }
      const response = await client.delete('/api/v2/data-app/api-tokens', query, token)
      client.print(response, response.key)
    },
  },
}
