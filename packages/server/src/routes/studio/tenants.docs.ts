import { ADMIN_TOKEN, operations } from '../../schemas/openapi.js'

/** The tenants the studio's preview offers; admin access token only. */
export const docs = operations('studio', {
  listStudioTenants: {
    summary: 'List the tenants of a workspace, to preview a dashboard as one (the studio)',
    description:
      'What the studio offers in “Preview as a tenant”: the distinct values of the workspace’s tenant column (the first table of its datamart with a client column), read with no tenancy, or under DATABASE tenancy the datasource’s databases. `search` is a case-insensitive contains bound as a value (`%` and `_` are literal). 100 a page, ascending; `nextCursor` names the next page. With no tenancy configured, `source` is `none` and the list is empty. Takes the admin access token only.',
    auth: ADMIN_TOKEN,
    errors: [
      [400, 'WORKSPACE_ID_ERROR', 'workspaceName names no workspace of the organization.'],
      [400, 'INVALID_REQUEST_BODY', 'A cursor this route did not answer, or a search longer than 200 characters.'],
    ],
    returns: 'A page of tenant ids and where they were read.',
  },
})
