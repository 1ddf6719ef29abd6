import { GUEST_TOKEN, operations, WAREHOUSE_ERRORS } from '../../schemas/openapi.js'
import { browser, outside, tokenOrEmbedGone } from './guest.docs.js'

const paging =
  'At most 100 values a page, ascending, nulls left out; `nextCursor` (null on the last page) is the `cursor` of the next. `search` keeps the values that contain it, case-insensitively (text columns; on other types every value is listed). Cached per tenant like metric results.'

/** Value pickers under /api/v2/embed/runtime (docs/runtime-api.md#filter-values); guest token. */
export const docs = operations('embed runtime', {
  getFilterValues: {
    summary: "A dashboard filter's values for this tenant",
    description: `${browser} The distinct values of the column of the dashboard filter \`name\` (its name or label, case-insensitive), under the token's tenancy, its RLS values (as they restrict an end user's metric) and its locked filters (dashboardAppFilters); the defaults of the dashboard's filters do not narrow it. ${paging} Only for multi-select, single-select and text filters, and only where the end user may use the filter.`,
    auth: GUEST_TOKEN,
    errors: [
      tokenOrEmbedGone,
      [
        403,
        'UNAUTHORIZED',
        'The id is outside the allowedEmbeds of the token, end-user dashboard filters are off, the filter is hidden for this token or its column is outside dashboardFilterColumns, or the origin is not whitelisted.',
      ],
      [
        400,
        'INVALID_REQUEST_BODY',
        'No filter of that name on this dashboard, or a date-range, number-range or boolean filter.',
      ],
      ...WAREHOUSE_ERRORS,
    ],
    returns: 'A page of values and the cursor of the next.',
  },
  getModelColumnValues: {
    summary: "A model column's values for this tenant (the builder's filter inputs)",
    description: `${browser} The distinct values of a column of the visible model (\`table\` as GET /model names it, schema.table), under the same tenancy, RLS and locked filters as an end user's metric. ${paging} Needs the create permission; a tenant column or a hidden table or column is "no column".`,
    auth: GUEST_TOKEN,
    errors: [
      tokenOrEmbedGone,
      outside,
      [
        403,
        'INSUFFICIENT_PERMISSIONS',
        'Creating metrics is off for this embed (accessSettings) or this token (permissions): docs/guest-tokens.md, "permissions".',
      ],
      [400, 'INVALID_REQUEST_BODY', 'The visible model has no such table or column.'],
      ...WAREHOUSE_ERRORS,
    ],
    returns: 'A page of values and the cursor of the next.',
  },
})
