import { operations, SERVICE_TOKEN } from '../../schemas/openapi.js'

const binding =
  'DATASOURCE needs `datasourceName`, DATAMART needs `datamartName`; MULTI_DATASOURCE and MULTI_DATAMART name theirs on each metric query.'

/** Workspaces: what dashboards are imported into and queried through; service token. */
export const docs = operations('workspaces', {
  createWorkspace: {
    summary: 'Create a workspace',
    description: `A workspace binds dashboards to what they query: ${binding} Takes the service token.`,
    auth: SERVICE_TOKEN,
    errors: [
      [400, 'INVALID_DATASOURCE_NAME'],
      [400, 'INVALID_DATAMART_NAME'],
      [400, 'INVALID_REQUEST_BODY', 'Also when a workspace of that name exists.'],
    ],
    returns: 'The name of the workspace.',
  },
  updateWorkspace: {
    summary: 'Update a workspace',
    description: `Replaces the settings of the workspace \`name\` (${binding}). Cached results of its dashboards are dropped on every instance. Takes the service token.`,
    auth: SERVICE_TOKEN,
    errors: [
      [400, 'WORKSPACE_DOES_NOT_EXIST'],
      [400, 'INVALID_DATASOURCE_NAME'],
      [400, 'INVALID_DATAMART_NAME'],
    ],
    returns: 'The name of the workspace.',
  },
  listWorkspaceDashboards: {
    summary: "List a workspace's dashboards",
    description:
      'Every dashboard of the workspace `workspaceName` (`name` and `externalDashboardId`, the id embeds and guest tokens name), oldest first, whether or not a data app embeds it; pages of 10 with `isPagination: true` (typed values in the body, `pageNumber` 1-based). Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: [[400, 'WORKSPACE_ID_ERROR', 'workspaceName names no workspace of the organization.']],
    returns: "The workspace's dashboards.",
  },
  listWorkspaces: {
    summary: 'List workspaces',
    description:
      'The workspaces of the organization, oldest first, with what each is bound to. Takes the service token.',
    auth: SERVICE_TOKEN,
  },
  deleteWorkspace: {
    summary: 'Delete a workspace with no dashboard',
    description: 'Deletes the workspace; refused, naming them, while dashboards live in it. Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: [
      [400, 'WORKSPACE_DOES_NOT_EXIST'],
      [400, 'INVALID_REQUEST_BODY', 'Also while dashboards live in the workspace.'],
    ],
    returns: 'The id of the deleted workspace.',
  },
})
