import { ADMIN_TOKEN, operations } from '../../schemas/openapi.js'

/** The studio's preview token; admin access token only. */
export const docs = operations('studio', {
  createStudioPreviewToken: {
    summary: 'Mint a guest token to preview a dashboard as a tenant (the studio)',
    description:
      'The studio calls it to draw a dashboard exactly as one tenant’s end users see it, without the data app’s secret key: the server mints the guest token itself, as `POST /api/v2/guest-token/create` would for `dataAppName`, with `clientId`, `rlsSettings` (as `params.rlsSettings`) and `permissions`. The token lives 15 minutes (STUDIO_PREVIEW_TTL_S seconds when set) and loads only this dashboard (`embedId` in the answer), through the embed the data app’s end users load by the dashboard’s id, or read-only when the data app embeds it nowhere yet. `author: true` gives the builder and the layout editor instead, over the company’s document (what is built there is saved with `PUT /api/v2/data-app/dashboard`, not as a tenant’s metric). Takes the admin access token only: the service token is refused (a backend mints guest tokens with the data app key).',
    auth: ADMIN_TOKEN,
    errors: [
      [
        400,
        'INVALID_REQUEST_BODY',
        'Also when dataAppName names no data app, or dashboardId no dashboard of the workspace; clientId as on the guest-token route (1 to 500 characters).',
      ],
      [400, 'WORKSPACE_ID_ERROR', 'workspaceName names no workspace of the organization.'],
      [400, 'RLS_SETTINGS_PARAM_ERROR', 'An rlsSettings[].metricId is not a metric of the dashboard.'],
    ],
    returns: 'The guest token, what the element loads with it, and when it ends.',
  },
})
