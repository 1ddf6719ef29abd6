import { DATA_APP_KEY, operations } from '../../schemas/openapi.js'

/** Guest token minting; data app key. */
const auth = { ...DATA_APP_KEY, failure: { code: 'AUTHENTICATION_ERROR', status: 401 } } as const
const idErrors = [
  [
    400,
    'APP_FILTER_PARAM_ERROR',
    'A dashboardAppFilters[].dashboardId is not a dashboard this data app embeds (an embed id sent for it included), or an appFilters[].metricId is not a metric of one.',
  ],
  [400, 'RLS_SETTINGS_PARAM_ERROR', 'An rlsSettings[].metricId is not a metric of a dashboard this data app embeds.'],
] as const

export const docs = operations('guest tokens', {
  createGuestToken: {
    summary: 'Mint a guest token for one end user',
    description:
      'Called by your backend for each end user: returns an opaque token (claims stay server-side) that the web component sends to the embed runtime. `clientId` selects the tenant (row-level security, tenancy); `params` carry RLS values, filters fixed by the app, `allowedEmbeds`, the time zone; `permissions` narrow what the embed allows (a flag left out inherits the embed’s setting; download is off unless `isEnableDownloadMetrics` is `true`; the rule per capability: docs/guest-tokens.md). Every id is checked against this data app. The body is strict: an undeclared field is a 400. Takes the data app API key (a bad one: 401 `AUTHENTICATION_ERROR`, as the hosted API has it).',
    auth,
    errors: [
      [
        400,
        'INVALID_REQUEST_BODY',
        'Also when dataAppName is not the data app of the key, timezone is not an IANA zone, or an allowedEmbeds id is no embed or dashboard of this data app.',
      ],
      ...idErrors,
    ],
    returns: 'The guest token.',
  },
  createGuestTokenV1: {
    summary: 'Mint a guest token naming a workspace (v1)',
    description:
      'The first form of the guest token, kept for backends written against it: `workspaceName` in place of `dataAppName`, the rest as the v2 body (as strict), plus `params.dashboard: { id }`. The token is the key’s data app’s, and loads only embeds of the dashboards of that workspace (another: 403 `UNAUTHORIZED`); `params.dashboard.id` narrows it to that one dashboard (as `allowedEmbeds` would). Takes the data app API key (a bad one: 401 `AUTHENTICATION_ERROR`).',
    auth,
    errors: [
      [
        400,
        'INVALID_REQUEST_BODY',
        'Also when timezone is not an IANA zone, an allowedEmbeds id is no embed or dashboard of this data app, or both params.dashboard and params.allowedEmbeds are sent.',
      ],
      [400, 'WORKSPACE_ID_ERROR', 'workspaceName names no workspace of the organization.'],
      [
        400,
        'DASHBOARD_PARAM_ERROR',
        'params.dashboard.id is not a dashboard of the workspace that this data app embeds.',
      ],
      ...idErrors,
    ],
    returns: 'The guest token.',
  },
})
