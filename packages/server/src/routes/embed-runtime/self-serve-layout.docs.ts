import { GUEST_TOKEN, type OperationError, operations } from '../../schemas/openapi.js'
import { browser, outside, tokenOrEmbedGone } from './guest.docs.js'

const whose =
  "Saved under the token's key: the user's with `params.userIdentifier`, else the tenant's (`clientId`); another tenant or another user never sees it."
const layoutRefused: OperationError = [
  403,
  'INSUFFICIENT_PERMISSIONS',
  'The embed (isAllowMetricLayoutChange) or the token (isEnableCustomizeLayout) does not allow customizing the layout.',
]
const viewsRefused: OperationError = [
  403,
  'INSUFFICIENT_PERMISSIONS',
  'The embed (isAllowCreateDashboardView) or the token (isEnableCreateDashboardView) does not allow dashboard views.',
]

/** PUT/DELETE /layout, GET/POST /views, DELETE /views/:viewId under /api/v2/embed/runtime/:embedId. */
export const docs = operations('embed runtime', {
  putLayout: {
    summary: "Save the end user's layout of the dashboard",
    description: `${browser} ${whose} A 12-column grid: x + w ≤ 12, h ≤ 40, at most 500 items, each a metric the token sees, at most once. The load returns it from then on (\`dashboard.customLayout: true\`), visible metrics it lacks appended below two per row.`,
    auth: GUEST_TOKEN,
    errors: [
      tokenOrEmbedGone,
      outside,
      layoutRefused,
      [400, 'EMBED_PARAM_ERROR', 'A metricId is not a metric this token sees, or the embed is a metric embed.'],
      [
        400,
        'INVALID_REQUEST_BODY',
        'An item off the grid (x + w > 12, h > 40, negative), a repeated metric, more than 500 items.',
      ],
    ],
    returns: 'The layout the load now returns.',
  },
  resetLayout: {
    summary: "Forget the end user's layout",
    description: `${browser} ${whose} Deletes the token's saved layout: the dashboard shows the company's layout again (for a user whose tenant saved one, the tenant's).`,
    auth: GUEST_TOKEN,
    errors: [tokenOrEmbedGone, outside, layoutRefused, [400, 'EMBED_PARAM_ERROR', 'The embed is a metric embed.']],
    returns: 'The layout the load now returns.',
  },
  listViews: {
    summary: "The end user's saved dashboard views",
    description: `${browser} ${whose} Oldest first; filters the dashboard no longer has (or the token hides) are left out.`,
    auth: GUEST_TOKEN,
    errors: [tokenOrEmbedGone, outside, viewsRefused],
  },
  createView: {
    summary: 'Save the current filters (and layout) as a named view',
    description: `${browser} ${whose} \`filters\` as a runtime query's \`dashboardFilter\`: names or labels of the dashboard's filters (not hidden ones), values in the end-user forms. Names are 1–100 characters, unique per key; at most 100 views per key.`,
    auth: GUEST_TOKEN,
    errors: [
      tokenOrEmbedGone,
      outside,
      viewsRefused,
      [403, 'UNAUTHORIZED', 'End-user filters are off for the embed or the token, or a filter column is not allowed.'],
      [
        400,
        'EMBED_PARAM_ERROR',
        'A layout item names a metric this token does not see, or the embed is a metric embed.',
      ],
      [
        400,
        'INVALID_REQUEST_BODY',
        'A filter key names no filter (or a hidden one), a layout item is off the grid, the name is taken or too long, the view is over 32 KB as JSON, 100 views are saved already.',
      ],
    ],
  },
  deleteView: {
    summary: 'Delete a saved view',
    description: `${browser} ${whose} A view of another key is answered as one that does not exist.`,
    auth: GUEST_TOKEN,
    errors: [
      tokenOrEmbedGone,
      outside,
      viewsRefused,
      [400, 'EMBED_PARAM_ERROR', 'No view with this id for this token.'],
    ],
  },
})
