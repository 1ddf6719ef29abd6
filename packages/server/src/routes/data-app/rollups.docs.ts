import { operations, SERVICE_TOKEN } from '../../schemas/openapi.js'

/** GET /api/v2/data-app/rollups and POST …/rollups/refresh; service token. */
export const docs = operations('rollups', {
  listRollups: {
    summary: 'List rollups and their state',
    description:
      "Every rollup the organization's dashboards declare (docs/rollups.md), or with `workspaceName` and `dashboardId` only that dashboard's (none when it does not exist), by workspace, dashboard and name: its state (building, ready, failed, stale), rows and bytes of its files, when it was last refreshed and is next due, how old its data is (`lagSeconds`) and the last build's error. Takes the service token.",
    auth: SERVICE_TOKEN,
    errors: [[400, 'INVALID_REQUEST_BODY', 'Only one of workspaceName and dashboardId, or another query parameter.']],
    returns: 'The rollups with their state.',
  },
  refreshRollups: {
    summary: 'Refresh rollups now',
    description:
      'Makes the rollups of one dashboard (or the one `rollup` names) due now and answers 202 with their state; an instance builds them in the background, once across instances. A build never blocks a query. A rollup waiting for a change (`nextRefreshAt` null: over ROLLUP_MAX_COUNT, or a definition the model no longer fits) is not made due and is answered as it is. Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: [
      [400, 'WORKSPACE_ID_ERROR', 'workspaceName names no workspace of the organization.'],
      [400, 'INVALID_DASHBOARD_ID', 'dashboardId names no dashboard of the workspace.'],
      [400, 'INVALID_REQUEST_BODY', 'Also when the dashboard declares no rollups, or none named `rollup`.'],
    ],
    returns: 'The state of each rollup now due.',
  },
})
