import { type Static, Type } from '@fastify/type-provider-typebox'
import { worded } from '../validation/schema-errors.js'
import { AlphanumericName } from './common.js'

/**
 * The shortest lifetime a token may have: 1 s. A smaller `expiryTime` is nearly always seconds
 * sent for milliseconds (60 for a minute) and would mint a token that expires before the page
 * has used it, looping the web component through refreshes.
 */
export const MIN_EXPIRY_MS = 1000

const Str = Type.String({ minLength: 1, maxLength: 500 })
const strict = { additionalProperties: false } as const

/** The value forms of docs/dashboard-document.md#filter-values-token-and-end-user; which apply where is checked when a filter binds. */
export const FilterValue = Type.Union([
  Type.Boolean(),
  Type.Number(),
  Type.String({ maxLength: 10_000 }),
  Type.Array(Type.Union([Type.String({ maxLength: 10_000 }), Type.Number(), Type.Boolean()]), { maxItems: 10_000 }),
  Type.Object(
    {
      startDate: Type.Optional(Type.String({ maxLength: 64 })),
      endDate: Type.Optional(Type.String({ maxLength: 64 })),
      start: Type.Optional(Type.String({ maxLength: 64 })),
      end: Type.Optional(Type.String({ maxLength: 64 })),
    },
    {
      ...strict,
      minProperties: 1,
      description:
        'A date range: { startDate, endDate }, or { start, end } as the hosted service writes it (the same value; both spellings of a bound with different values is a 400). Both bounds are required.',
    },
  ),
  Type.Object({ min: Type.Optional(Type.Number()), max: Type.Optional(Type.Number()) }, strict),
  Type.Object({ sql: Type.String({ minLength: 1, maxLength: 100_000 }), columnName: Str }, strict),
])
export type FilterValueInput = Static<typeof FilterValue>

/** Entries of params.reportRecipients a token may carry. */
export const MAX_REPORT_RECIPIENT_ENTRIES = 100

/** An address (ann@example.com) or `@domain` (@example.com): a domain of at least two labels. */
const RecipientEntry = Type.String({
  minLength: 3,
  maxLength: 254,
  pattern: worded(
    '^[^@\\s]*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$',
    'an e-mail address (ann@example.com) or @domain (@example.com)',
  ),
})

const Values = Type.Record(Type.String({ minLength: 1, maxLength: 500 }), FilterValue)

export const GuestTokenParams = Type.Object(
  {
    rlsSettings: Type.Optional(Type.Array(Type.Object({ metricId: Str, values: Values }, strict), { maxItems: 1000 })),
    appFilters: Type.Optional(Type.Array(Type.Object({ metricId: Str, values: Values }, strict), { maxItems: 1000 })),
    dashboardAppFilters: Type.Optional(
      Type.Array(
        Type.Object({ dashboardId: Str, values: Values, isShowOnUrl: Type.Optional(Type.Boolean()) }, strict),
        { maxItems: 1000 },
      ),
    ),
    hideDashboardFilters: Type.Optional(Type.Array(Str, { maxItems: 1000 })),
    allowedEmbeds: Type.Optional(Type.Array(Str, { maxItems: 1000 })),
    accessPermissions: Type.Optional(
      Type.Object(
        {
          isAllowEndUserDashboardFilter: Type.Optional(Type.Boolean()),
          dashboardFilterColumns: Type.Optional(
            Type.Array(Type.Object({ tableName: Str, columns: Type.Array(Str, { maxItems: 1000 }) }, strict), {
              maxItems: 1000,
            }),
          ),
        },
        strict,
      ),
    ),
    userIdentifier: Type.Optional(Str),
    reportRecipients: Type.Optional(
      Type.Array(RecipientEntry, {
        maxItems: MAX_REPORT_RECIPIENT_ENTRIES,
        description:
          'Who email reports of this token may go to: addresses, and @domain entries for every address of exactly that domain (no subdomains); case-insensitive. When absent, only userIdentifier when it is an e-mail address.',
      }),
    ),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone name' })),
  },
  strict,
)

export const PERMISSIONS = [
  'isEnableArchiveMetrics',
  'isEnableManageMetrics',
  'isEnableCreateDashboardView',
  'isEnableMetricUpdation',
  'isEnableCustomizeLayout',
  'isEnableUnderlyingData',
  'isEnableDownloadMetrics',
  'isShowSideBar',
  'isShowDashboardName',
  'isDisableMetricCreation',
] as const

export const GuestTokenPermissions = Type.Object(
  Object.fromEntries(PERMISSIONS.map((p) => [p, Type.Optional(Type.Boolean())])) as Record<
    (typeof PERMISSIONS)[number],
    ReturnType<typeof Type.Optional<ReturnType<typeof Type.Boolean>>>
  >,
  strict,
)

export const GuestTokenBody = Type.Object(
  {
    dataAppName: AlphanumericName,
    clientId: Type.String({ minLength: 1, maxLength: 500 }),
    params: Type.Optional(GuestTokenParams),
    permissions: Type.Optional(GuestTokenPermissions),
    expiryTime: Type.Optional(
      Type.Integer({
        minimum: MIN_EXPIRY_MS,
        maximum: 10 * 365 * 24 * 3600 * 1000,
        description: 'milliseconds from creation, at least 1000 (one second)',
        'x-unit': 'milliseconds',
      }),
    ),
    datasourceName: Type.Optional(Str),
    datamartName: Type.Optional(Str),
  },
  {
    ...strict,
    examples: [
      {
        dataAppName: 'salesapp',
        clientId: 'acme',
        params: {
          rlsSettings: [{ metricId: 'revenue', values: { region: ['EMEA'] } }],
          appFilters: [{ metricId: 'revenue_by_country', values: { status: ['paid', 'shipped'] } }],
          dashboardAppFilters: [
            { dashboardId: 'sales-overview', values: { Country: ['DE', 'FR'] }, isShowOnUrl: true },
          ],
          hideDashboardFilters: ['period'],
          allowedEmbeds: ['sales-overview'],
          accessPermissions: {
            isAllowEndUserDashboardFilter: true,
            dashboardFilterColumns: [{ tableName: 'public.orders', columns: ['country'] }],
          },
          userIdentifier: 'user-42',
          timezone: 'Europe/Berlin',
        },
        permissions: { isEnableDownloadMetrics: true, isEnableUnderlyingData: false, isShowDashboardName: true },
        expiryTime: 3_600_000,
      },
    ],
  },
)
export type GuestTokenRequest = Static<typeof GuestTokenBody>

export const GuestTokenResponse = Type.Object({ token: Type.String() })

/**
 * The v1 guest token (`POST /api/v1/guest-token/create`): `workspaceName` in place of
 * `dataAppName`, and `params.dashboard: { id }` as the hosted service's v1 examples send it;
 * otherwise the v2 body, as strict.
 */
export const GuestTokenV1Params = Type.Object(
  {
    ...GuestTokenParams.properties,
    dashboard: Type.Optional(
      Type.Object(
        { id: Str },
        { ...strict, description: 'The one dashboard the token may load (its dashboardId, in the workspace)' },
      ),
    ),
  },
  strict,
)

const { dataAppName: _dataAppName, params: _params, ...v2Fields } = GuestTokenBody.properties
export const GuestTokenV1Body = Type.Object(
  {
    workspaceName: Type.String({ minLength: 1, maxLength: 200 }),
    ...v2Fields,
    params: Type.Optional(GuestTokenV1Params),
  },
  {
    ...strict,
    examples: [
      {
        workspaceName: 'main',
        clientId: 'acme',
        params: { dashboard: { id: 'sales-overview' } },
        expiryTime: 3_600_000,
      },
    ],
  },
)
export type GuestTokenV1Request = Static<typeof GuestTokenV1Body>
