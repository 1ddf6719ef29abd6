/**
 * The hosted service's published request/response examples for the routes Strata implements,
 * one row each, written for these tests after the service's public API reference pages
 * (docs.usedatabrain.com/developer-docs/helpers/api-reference/<page>, and the older pages it
 * still serves). Names in the bodies are the fixture's (the warehouse of helpers/warehouse.ts and
 * the analytics of helpers/analytics.ts) where the example named its own tables, datamart or
 * dashboard; everything else is as the page has it.
 *
 * In the strings of `url`, `body` and `answer`, `{{name}}` is a value of the replay's context
 * (hosted-examples.test.ts). In `answer`, a value is compared by kind (string, number, boolean,
 * null, object, array) unless it starts with `=`, which asks for that exact value (test/compat/shape.ts).
 */
/** The data app key, the service token, or a key that is not one (the examples of a refused key). */
export type Auth = 'key' | 'service' | 'invalid key'

export interface HostedExample {
  /** Unique: the page and the example's title there. */
  readonly name: string
  /** The page of the hosted API reference the example is on. */
  readonly page: string
  readonly auth: Auth
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  readonly url: string
  readonly body?: object
  readonly status: number
  /** The example's answer; omitted where the page shows none. */
  readonly answer?: unknown
  /** Response headers the page names. */
  readonly headers?: Readonly<Record<string, RegExp>>
  /**
   * Set where Strata answers otherwise on purpose (the contract says so): the test asserts
   * `strata` instead, and docs/api.md "Differences from the hosted service" has the row.
   */
  readonly difference?: {
    /** The first cell of its row in docs/api.md#differences-from-the-hosted-service. */
    readonly where: string
    readonly why: string
    readonly status: number
    readonly answer?: unknown
  }
}

const ACCESS = {
  datamartName: '{{datamart}}',
  isAllowEmailReports: false,
  isAllowManageMetrics: true,
  isAllowCreateDashboardView: true,
  isAllowMetricCreation: true,
  isAllowMetricDeletion: false,
  isAllowMetricLayoutChange: true,
  isAllowMetricUpdate: true,
  isAllowUnderlyingData: false,
  joinModel: 'multi',
  metricCreationMode: 'DRAG_DROP',
  tableTenancySettings: [{ name: 'orders', clientColumn: 'tenant' }],
}

/** The page, token and request line that several examples share. */
const route = (page: string, auth: Auth, method: HostedExample['method'], url: string) => ({ page, auth, method, url })
const GUEST_TOKEN = route('token', 'key', 'POST', '/api/v2/guest-token/create')
const POST_QUERY = route('fetch-metric-data-by-dataapp', 'key', 'POST', '/api/v2/data-app/query')
const POST_EMBEDS = route('create-embed', 'key', 'POST', '/api/v2/data-app/embeds')
const LEGACY_POST_UPDATE = route('update-embed', 'key', 'POST', '/api/v2/dataApp/embed/update')
const PUT_RENAME = route('rename-embed', 'key', 'PUT', '/api/v2/data-app/embeds/rename')
const POST_IMPORT_DASHBOARD = route('import-dashboard', 'service', 'POST', '/api/v2/data-app/import-dashboard')
const POST_DATA_APP = route('create-data-app', 'service', 'POST', '/api/v2/data-app')

const ID_NO_ERROR = { id: 'string', error: null }
const ECHO_EMBED = { id: '={{embedId}}', error: null }

const QUERY_ANSWER = {
  data: [{}],
  timeTaken: 1,
  totalRecords: 1,
  metaData: { columns: [{ name: 'string', dataType: 'string' }], groupbyColumnList: [] },
  metricid: '={{metricId}}',
  error: null,
}

const EMBED_ITEM_DASHBOARD = {
  embedId: '={{embedId}}',
  embedType: 'dashboard',
  name: 'string',
  externalDashboard: {
    externalDashboardId: '={{dashboardId}}',
    metadata: { createdAt: 'string', updatedAt: 'string' },
    name: 'string',
  },
  externalMetric: null,
  embedMetadata: {
    embedId: '={{embedId}}',
    name: 'string',
    embedType: 'dashboard',
    dataAppName: '={{dataAppName}}',
    metricId: null,
    dashboardId: '={{dashboardId}}',
    createdAt: 'string',
    updatedAt: 'string',
  },
}

const EMBED_ITEM_METRIC = {
  embedId: '={{metricEmbedId}}',
  embedType: 'metric',
  name: 'string',
  externalDashboard: null,
  externalMetric: { metricId: '={{metricId}}', name: 'string' },
  embedMetadata: {
    embedId: '={{metricEmbedId}}',
    name: 'string',
    embedType: 'metric',
    dataAppName: '={{dataAppName}}',
    metricId: '={{metricId}}',
    dashboardId: null,
    createdAt: 'string',
    updatedAt: 'string',
  },
}

export const HOSTED_EXAMPLES: readonly HostedExample[] = [
  // guest token
  {
    name: 'token: quick start, clientId and dataAppName only',
    ...GUEST_TOKEN,
    body: { clientId: 'acme', dataAppName: '{{dataAppName}}' },
    status: 200,
    answer: { token: 'string' },
  },
  {
    name: 'token: the request with params, expiryTime and datasourceName',
    ...GUEST_TOKEN,
    body: {
      dataAppName: '{{dataAppName}}',
      clientId: 'acme',
      params: {},
      expiryTime: 3_600_000,
      datasourceName: '{{datasource}}',
    },
    status: 200,
    answer: { token: 'string' },
  },
  {
    name: 'token: app filters of every value form, dashboard app filters, permissions',
    ...GUEST_TOKEN,
    body: {
      clientId: 'acme',
      dataAppName: '{{dataAppName}}',
      params: {
        appFilters: [{ metricId: 'revenue_by_country', values: { paid: ['paid', 'shipped'] } }],
        dashboardAppFilters: [
          {
            dashboardId: '{{dashboardId}}',
            values: {
              country: ['US', 'DE'],
              period: { startDate: '2026-01-01', endDate: '2026-03-23' },
              amount: { min: 10, max: 500 },
            },
            isShowOnUrl: true,
          },
        ],
        hideDashboardFilters: ['status'],
        userIdentifier: 'user-42',
      },
      permissions: {
        isEnableArchiveMetrics: true,
        isEnableManageMetrics: true,
        isEnableCreateDashboardView: true,
        isEnableMetricUpdation: true,
        isEnableCustomizeLayout: true,
        isEnableUnderlyingData: true,
        isEnableDownloadMetrics: true,
        isShowSideBar: true,
        isShowDashboardName: true,
        isDisableMetricCreation: false,
      },
      expiryTime: 86_400_000,
    },
    status: 200,
    answer: { token: 'string' },
  },
  {
    name: 'token: a dashboard date range as { start, end }',
    ...GUEST_TOKEN,
    body: {
      clientId: 'acme',
      dataAppName: '{{dataAppName}}',
      params: {
        dashboardAppFilters: [
          { dashboardId: '{{dashboardId}}', values: { period: { start: '2026-01-01', end: '2026-01-31' } } },
        ],
      },
    },
    status: 200,
    answer: { token: 'string' },
  },
  {
    name: 'token: allowedEmbeds and a timezone',
    ...GUEST_TOKEN,
    body: {
      clientId: 'acme',
      dataAppName: '{{dataAppName}}',
      params: { allowedEmbeds: ['{{embedId}}'], timezone: 'America/New_York' },
    },
    status: 200,
    answer: { token: 'string' },
  },
  {
    name: 'token: an app filter whose values come from SQL',
    ...GUEST_TOKEN,
    body: {
      clientId: 'acme',
      dataAppName: '{{dataAppName}}',
      params: {
        appFilters: [
          {
            metricId: 'revenue_by_country',
            values: { paid: { sql: "select 'refunded' as status", columnName: 'status' } },
          },
        ],
      },
    },
    status: 200,
    answer: { token: 'string' },
  },
  {
    name: 'token: the curl example, a data app named sales-dashboard',
    ...GUEST_TOKEN,
    body: { clientId: 'user-456', dataAppName: 'sales-dashboard' },
    status: 200,
    answer: { token: 'string' },
    difference: {
      where: 'Data app names',
      why: 'Our contract has data app names alphanumeric, as the same page says; its examples name one with a hyphen.',
      status: 400,
      answer: { error: { code: '=INVALID_REQUEST_BODY', message: 'string' } },
    },
  },
  {
    name: 'token: 401, the key is invalid or expired',
    page: 'token',
    auth: 'invalid key',
    method: 'POST',
    url: '/api/v2/guest-token/create',
    body: { clientId: 'acme', dataAppName: '{{dataAppName}}' },
    status: 401,
    answer: { error: { message: 'string', code: '=AUTHENTICATION_ERR' } },
    difference: {
      where: 'Guest token, a refused key',
      why: 'The error table of the same page, and our contract, name AUTHENTICATION_ERROR for a bad key on this route; the example answer spells it AUTHENTICATION_ERR.',
      status: 401,
      answer: { error: { message: 'string', code: '=AUTHENTICATION_ERROR' } },
    },
  },
  {
    name: 'token: 400, an invalid dashboard id',
    ...GUEST_TOKEN,
    body: {
      clientId: 'acme',
      dataAppName: '{{dataAppName}}',
      params: { dashboardAppFilters: [{ dashboardId: 'no-such-dashboard', values: { country: 'US' } }] },
    },
    status: 400,
    answer: { error: { message: 'string', code: 'string' } },
  },

  // dashboards, metrics, query
  {
    name: 'fetch-dashboards-by-datapp: GET, paginated',
    page: 'fetch-dashboards-by-datapp',
    auth: 'key',
    method: 'GET',
    url: '/api/v2/data-app/dashboards?isPagination=true&pageNumber=1',
    status: 200,
    answer: { data: [{ name: 'string', externalDashboardId: '={{dashboardId}}', embedId: 'string' }] },
  },
  {
    name: 'fetch-dashboards-by-datapp: GET, by names',
    page: 'fetch-dashboards-by-datapp',
    auth: 'key',
    method: 'GET',
    url: '/api/v2/data-app/dashboards?isPagination=true&pageNumber=1&dashboardNames={{dashboardNameQuery}},Marketing%20Analytics',
    status: 200,
    answer: { data: [{ name: 'string', externalDashboardId: '={{dashboardId}}', embedId: 'string' }] },
  },
  {
    name: 'fetch-dashboards-by-datapp: the legacy POST with filters',
    page: 'fetch-dashboards-by-datapp',
    auth: 'key',
    method: 'POST',
    url: '/api/v2/data-app/dashboards',
    body: {
      isPagination: true,
      pageNumber: 1,
      filters: { dashboardNames: ['{{dashboardName}}', 'Marketing Analytics'] },
    },
    status: 200,
    answer: { data: [{ name: 'string', externalDashboardId: '={{dashboardId}}' }] },
  },
  {
    name: 'data-app-embedding-apis: the legacy POST, page 2 (empty)',
    page: 'data-app-embedding-apis',
    auth: 'key',
    method: 'POST',
    url: '/api/v2/data-app/dashboards',
    body: { isPagination: true, pageNumber: 2 },
    status: 200,
    answer: { data: [], error: null },
    difference: {
      where: 'Dashboards list and metrics list, `error`',
      why: 'Our contract gives the dashboards list as `{ data }` (`{ data: [] }` when empty) without the `error: null` member of the older page; the current page of the route shows no `error` either.',
      status: 200,
      answer: { data: [] },
    },
  },
  {
    name: 'fetch-metrics-by-embed-and-client: metrics only, paginated',
    page: 'fetch-metrics-by-embed-and-client',
    auth: 'key',
    method: 'GET',
    url: '/api/v2/data-app/metrics?embedId={{embedId}}&clientId=acme&isPagination=true&pageNumber=1&isMetric=true',
    status: 200,
    answer: {
      data: [{ name: 'string', metricId: '={{metricId}}', isPublished: true, createdByUser: null }],
      error: null,
    },
    difference: {
      where: 'Dashboards list and metrics list, `error`',
      why: 'Our contract gives the metrics list as `{ data }`, without the `error: null` member one version of the page shows (the other shows none).',
      status: 200,
      answer: { data: [{ name: 'string', metricId: '={{metricId}}', isPublished: true, createdByUser: null }] },
    },
  },
  {
    name: 'fetch-metrics-by-embed-and-client: 400, an unknown embed',
    page: 'fetch-metrics-by-embed-and-client',
    auth: 'key',
    method: 'GET',
    url: '/api/v2/data-app/metrics?embedId=embed-does-not-exist&clientId=acme',
    status: 400,
    answer: { error: { code: '=EMBED_PARAM_ERROR', message: 'string' } },
  },
  {
    name: 'fetch-metric-data-by-dataapp: a dashboard date range { start, end } and a metric filter',
    ...POST_QUERY,
    body: {
      embedId: '{{embedId}}',
      metricId: 'revenue_by_country',
      clientId: 'acme',
      dashboardFilter: { period: { start: '2026-01-01', end: '2026-01-31' } },
      metricFilter: { paid: 'refunded' }, // acme's orders are all refunded (helpers/warehouse.ts)
    },
    status: 200,
    answer: { ...QUERY_ANSWER, metricid: '=revenue_by_country' },
  },
  {
    name: 'fetch-metric-data-by-dataapp: the legacy path',
    page: 'fetch-metric-data-by-dataapp',
    auth: 'key',
    method: 'POST',
    url: '/api/v2/dataApp/query',
    body: { embedId: '{{embedId}}', metricId: '{{metricId}}', clientId: 'acme' },
    status: 200,
    answer: QUERY_ANSWER,
  },
  {
    name: 'fetch-metric-data-by-dataapp: 400, a datasourceName that does not resolve',
    ...POST_QUERY,
    body: { embedId: '{{embedId}}', metricId: '{{metricId}}', clientId: 'acme', datasourceName: 'no-such-source' },
    status: 400,
    answer: { error: { code: '=DATASOURCE_NAME_ERROR', message: 'string' } },
  },

  // embeds
  {
    name: 'create-embed: a dashboard embed with every access setting',
    ...POST_EMBEDS,
    body: {
      dashboardId: '{{dashboardId}}',
      embedType: 'dashboard',
      workspaceName: '{{workspace}}',
      name: 'Sales Dashboard Embed',
      accessSettings: ACCESS,
    },
    status: 200,
    answer: ID_NO_ERROR,
  },
  {
    name: 'create-embed: a metric embed',
    ...POST_EMBEDS,
    body: {
      dashboardId: '{{dashboardId}}',
      embedType: 'metric',
      metricId: '{{metricId}}',
      workspaceName: '{{workspace}}',
      name: 'Revenue Metric Embed',
    },
    status: 200,
    answer: ID_NO_ERROR,
  },
  {
    name: 'create-embed: the legacy path',
    page: 'create-embed',
    auth: 'key',
    method: 'POST',
    url: '/api/v2/dataApp/embeds',
    body: {
      dashboardId: '{{dashboardId}}',
      embedType: 'dashboard',
      workspaceName: '{{workspace}}',
      name: 'Sales Dashboard Embed (legacy)',
      accessSettings: ACCESS,
    },
    status: 200,
    answer: ID_NO_ERROR,
  },
  {
    name: 'list-embed: paginated, a dashboard and a metric embed',
    page: 'list-embed',
    auth: 'key',
    method: 'GET',
    url: '/api/v2/data-app/embeds?isPagination=true&pageNumber=1',
    status: 200,
    answer: { data: [EMBED_ITEM_DASHBOARD, EMBED_ITEM_METRIC], error: null },
  },
  {
    name: 'list-embed: the legacy list',
    page: 'list-embed',
    auth: 'key',
    method: 'POST',
    url: '/api/v2/dataApp/embed/list',
    body: { isPagination: true, pageNumber: 1 },
    status: 200,
    answer: { data: [EMBED_ITEM_DASHBOARD, EMBED_ITEM_METRIC], error: null },
  },
  {
    name: 'embed-data-app-api-crud: the legacy list, the older page',
    page: 'embed-data-app-api-crud',
    auth: 'key',
    method: 'POST',
    url: '/api/v2/dataApp/embed/list',
    body: { isPagination: true, pageNumber: 1 },
    status: 200,
    answer: {
      data: [
        {
          embedId: 'string',
          externalDashboard: { externalDashboardId: 'string', name: 'string' },
          externalMetric: { externalMetricId: 'string', name: 'string' },
          embedType: 'string',
          embedDataAppAccessSetting: { isAllowEmailReports: false, metricCreationMode: 'string' },
        },
      ],
      error: null,
    },
    difference: {
      where: "Embeds list, the older page's template",
      why: "The older page's template puts `externalDashboard` and `externalMetric` on one item, the metric's id as `externalMetricId`, and the access settings in the list; our contract's list item has one of the two by the embed's type, the id as `metricId`, and no access settings (the embed export carries them).",
      status: 200,
      answer: {
        data: [
          {
            embedId: 'string',
            externalDashboard: { externalDashboardId: 'string', name: 'string' },
            embedType: 'string',
          },
          { embedId: 'string', externalMetric: { metricId: 'string', name: 'string' }, embedType: 'string' },
        ],
        error: null,
      },
    },
  },
  {
    name: 'list-embed: filtered by clientId',
    page: 'list-embed',
    auth: 'key',
    method: 'GET',
    url: '/api/v2/data-app/embeds?clientId=acme',
    status: 200,
    answer: { data: [], error: null },
  },
  {
    name: 'update-embed: permissions, join model and table tenancy',
    page: 'update-embed',
    auth: 'key',
    method: 'PUT',
    url: '/api/v2/data-app/embeds',
    body: {
      embedId: '{{embedId}}',
      accessSettings: {
        isAllowMetricCreation: false,
        isAllowUnderlyingData: true,
        joinModel: 'multi',
        tableTenancySettings: [{ name: 'orders', clientColumn: 'tenant' }],
      },
    },
    status: 200,
    answer: ECHO_EMBED,
  },
  {
    name: 'update-embed: the legacy path, a new datamart',
    ...LEGACY_POST_UPDATE,
    body: { embedId: '{{embedId}}', accessSettings: { datamartName: '{{datamart}}', metricCreationMode: 'CHAT' } },
    status: 200,
    answer: ECHO_EMBED,
  },
  {
    name: 'update-embed: the legacy path, the older spellings isAllowAipilot and tableList',
    ...LEGACY_POST_UPDATE,
    body: {
      embedId: '{{embedId}}',
      accessSettings: {
        datamartName: '{{datamart}}',
        isAllowAipilot: true,
        isAllowEmailReports: false,
        isAllowManageMetrics: true,
        isAllowMetricCreation: true,
        isAllowMetricDeletion: true,
        isAllowMetricLayoutChange: true,
        isAllowMetricUpdate: true,
        isAllowUnderlyingData: false,
        metricCreationMode: 'DRAG_DROP',
        tableList: [{ clientColumn: 'tenant', name: 'orders' }],
      },
    },
    status: 200,
    answer: ECHO_EMBED,
  },
  {
    name: 'rename-embed: the embed and its dashboard',
    ...PUT_RENAME,
    body: { embedId: '{{embedId}}', name: 'Sales Overview (Q1)', isRenameDashboard: true },
    status: 200,
    answer: { id: '={{embedId}}', name: '=Sales Overview (Q1)', error: null },
  },
  {
    name: 'rename-embed: the embed only',
    ...PUT_RENAME,
    body: { embedId: '{{embedId}}', name: 'Sales Overview' },
    status: 200,
    answer: { id: '={{embedId}}', name: '=Sales Overview', error: null },
  },
  {
    name: 'rename-embed: 400, an unknown embed',
    ...PUT_RENAME,
    body: { embedId: 'embed-does-not-exist', name: 'Anything' },
    status: 400,
    answer: { error: { code: '=INVALID_EMBED_ID', message: 'string' } },
  },
  {
    name: 'export-embed: the dashboard behind an embed',
    page: 'export-embed',
    auth: 'key',
    method: 'GET',
    url: '/api/v2/data-app/embeds/export?embedId={{embedId}}',
    status: 200,
    headers: { 'content-disposition': /^attachment; filename="dashboard-[^"]+\.json"$/ },
    answer: {
      _meta: {
        exportedAt: 'string',
        embedId: '={{embedId}}',
        name: 'string',
        embedType: '=dashboard',
        dashboardId: '={{dashboardId}}',
        embedDataAppAccessSetting: {
          isAllowEmailReports: true,
          isAllowManageMetrics: true,
          isAllowCreateDashboardView: true,
          isAllowMetricCreation: true,
          isAllowMetricDeletion: false,
          isAllowMetricLayoutChange: true,
          isAllowMetricUpdate: true,
          isAllowUnderlyingData: false,
          metricCreationMode: 'DRAG_DROP',
        },
      },
      data: { layout: [], filters: [], metrics: [] },
    },
  },
  {
    name: 'export-embed: the legacy path',
    page: 'export-embed',
    auth: 'key',
    method: 'GET',
    url: '/api/v2/dataApp/embeds/export?embedId={{embedId}}',
    status: 200,
    answer: { _meta: { embedId: '={{embedId}}' }, data: { layout: [], filters: [], metrics: [] } },
  },
  {
    name: 'export-embed: 400, an unknown embed',
    page: 'export-embed',
    auth: 'key',
    method: 'GET',
    url: '/api/v2/data-app/embeds/export?embedId=embed-does-not-exist',
    status: 400,
    answer: { error: { code: 'string', message: 'string' } },
  },
  {
    name: 'delete-embed: DELETE with embedId',
    page: 'delete-embed',
    auth: 'key',
    method: 'DELETE',
    url: '/api/v2/data-app/embeds?embedId={{embedToDelete}}',
    status: 200,
    answer: { id: '={{embedToDelete}}' },
  },
  {
    name: 'delete-embed: the legacy POST with the query and a body',
    page: 'delete-embed',
    auth: 'key',
    method: 'POST',
    url: '/api/v2/data-app/embeds?embedId={{embedToDeleteLegacy}}',
    body: { embedId: '{{embedToDeleteLegacy}}' },
    status: 200,
    answer: { id: '={{embedToDeleteLegacy}}', error: null },
  },
  {
    name: 'delete-embed: 400, the embed is not found',
    page: 'delete-embed',
    auth: 'key',
    method: 'DELETE',
    url: '/api/v2/data-app/embeds?embedId=embed-does-not-exist',
    status: 400,
    answer: { error: { code: '=INVALID_REQUEST_BODY', message: 'string' } },
  },

  // dashboards as documents (service token)
  {
    name: 'export-dashboard: a dashboard of a workspace',
    page: 'export-dashboard',
    auth: 'service',
    method: 'POST',
    url: '/api/v2/data-app/export-dashboard',
    body: { dashboardId: '{{dashboardId}}', workspaceName: '{{workspace}}' },
    status: 200,
    headers: { 'content-disposition': /^attachment; filename="dashboard-[^"]+\.json"$/ },
    answer: {
      _meta: { exportedAt: 'string', workspaceName: '={{workspace}}', dashboardId: '={{dashboardId}}' },
      data: { layout: [], filters: [] },
    },
  },
  {
    name: 'import-dashboard: an exported dashboard with a new id and name, schema pairs',
    ...POST_IMPORT_DASHBOARD,
    body: {
      workspaceName: '{{workspace}}',
      importDashboardData: '{{exported}}',
      dashboardId: 'sales-dashboard-1-copy',
      dashboardName: 'Sales Dashboard (Copy)',
      schemaPairs: [{ replaceSchema: '{{schema}}', targetSchema: '{{schema}}' }],
    },
    status: 200,
    answer: {
      data: {
        response: {
          message: 'string',
          dashboardId: '=sales-dashboard-1-copy',
          dashboardName: '=Sales Dashboard (Copy)',
          workspaceName: '={{workspace}}',
        },
      },
    },
  },

  {
    name: 'import-dashboard: the bare layout, filters and gridMargin of a hosted export',
    ...POST_IMPORT_DASHBOARD,
    body: { workspaceName: '{{workspace}}', importDashboardData: { layout: [], filters: [], gridMargin: {} } },
    // the page's answer to this body is a bare `{ data: [] }`, which no client can read an id from: status only
    status: 200,
  },
  {
    name: 'create-dashboard-embed: a client dashboard from a template, with metadata',
    page: 'create-dashboard-embed',
    auth: 'key',
    method: 'POST',
    url: '/api/v2/data-app/dashboard-embeds',
    body: {
      dashboardId: 'client-acme-dashboard',
      workspaceName: '{{workspace}}',
      clientId: 'acme',
      templateDashboardId: '{{dashboardId}}',
      metadata: { clientName: 'Acme Corporation', region: 'North America' },
      isAllowPrivateMetricsByDefault: false,
      name: 'ACME Analytics Dashboard',
      embedDescription: 'Analytics dashboard for ACME Corp',
      isImportMetrics: true,
      isRenameDashboard: true,
      metricImportMode: 'GALLERY',
      accessSettings: ACCESS,
    },
    status: 200,
    answer: { id: '=client-acme-dashboard', error: null, name: '=ACME Analytics Dashboard' },
  },

  // datasources, datamarts, workspaces, data apps, API tokens (service token)
  {
    name: 'create-datasource: postgres',
    page: 'create-datasource',
    auth: 'service',
    method: 'POST',
    url: '/api/v2/datasource',
    body: { datasourceType: 'postgres', credentials: '{{pgCredentials}}' },
    status: 200,
    answer: { name: '=production-postgres' },
  },
  {
    name: 'update-datasource: postgres, new credentials',
    page: 'update-datasource',
    auth: 'service',
    method: 'PUT',
    url: '/api/v2/datasource',
    body: { datasourceType: 'postgres', credentials: '{{pgCredentials}}' },
    status: 200,
    answer: { name: '=production-postgres' },
  },
  {
    name: 'datamart-api: create with tables and column aliases',
    page: 'datamart-api',
    auth: 'service',
    method: 'POST',
    url: '/api/v2/data-app/datamarts',
    body: {
      name: 'sales-analytics',
      datasourceName: '{{datasource}}',
      tableList: [
        {
          schemaName: '{{schema}}',
          name: 'orders',
          columns: [{ name: 'id', alias: 'order_id' }, { name: 'amount' }, { name: 'tenant' }],
        },
      ],
    },
    status: 200,
    answer: { id: '=sales-analytics', error: null },
  },
  {
    name: 'update-datamart: replace the table list',
    page: 'update-datamart',
    auth: 'service',
    method: 'PUT',
    url: '/api/v2/data-app/datamarts',
    body: {
      datamartName: 'sales-analytics',
      tableList: [
        {
          schemaName: '{{schema}}',
          name: 'orders',
          clientColumn: 'tenant',
          isHide: false,
          columns: [
            { name: 'id', alias: 'order_id', label: 'Order ID', isHide: false },
            { name: 'customer_id', label: 'Customer', isHide: false },
            { name: 'created_at', alias: 'date', label: 'Order Date', isHide: false },
            { name: 'amount', label: 'Total Amount', isHide: true },
          ],
        },
        {
          schemaName: '{{schema}}',
          name: 'customers',
          label: 'Customer Records',
          clientColumn: 'tenant',
          isHide: false,
          columns: [
            { name: 'id', alias: 'customer_id', isHide: false },
            { name: 'name', alias: 'customer_name', isHide: false },
          ],
        },
      ],
    },
    status: 200,
    answer: { id: '=sales-analytics' },
  },
  {
    name: 'datamart-api: the legacy list, in the service names',
    page: 'datamart-api',
    auth: 'service',
    method: 'POST',
    url: '/api/v2/dataApp/datamart/list',
    body: { isPagination: false, pageNumber: 1 },
    status: 200,
    answer: {
      data: [
        {
          name: '={{datamart}}',
          datamartOrganization: {},
          companyIntegration: { name: '={{datasource}}' },
          datamartTables: [
            { schemaName: 'string', tableName: 'string', datamartTableColumns: [{ columnName: 'string' }] },
          ],
        },
      ],
    },
  },
  {
    name: 'list-datamarts: GET, without the details',
    page: 'list-datamarts',
    auth: 'service',
    method: 'GET',
    url: '/api/v2/data-app/datamarts?isPagination=true&pageNumber=1&expandDetails=false',
    status: 200,
    answer: {
      data: [{ name: '={{datamart}}', createdAt: 'string', updatedAt: 'string', datamartOrganization: {} }],
      error: null,
    },
  },
  {
    name: 'datamart-api: delete by name',
    page: 'datamart-api',
    auth: 'service',
    method: 'POST',
    url: '/api/v2/dataApp/datamart/delete',
    body: { datamartName: 'sales-analytics' },
    status: 200,
    answer: { id: '=sales-analytics', error: null },
  },
  {
    name: 'sync-datasource: by its id',
    page: 'sync-datasource',
    auth: 'service',
    method: 'POST',
    url: '/api/v2/datasource/sync',
    body: { input: { datasourceId: '{{datasourceId}}' } },
    status: 200,
    answer: { data: { message: 'string' } },
  },
  {
    name: 'update-workspace: to a datasource connection',
    page: 'update-workspace',
    auth: 'service',
    method: 'PUT',
    url: '/api/v2/workspace',
    body: { name: 'Sales Analytics', connectionType: 'DATASOURCE', datasourceName: '{{datasource}}' },
    status: 200,
    answer: { data: { name: '=Sales Analytics' }, error: null },
  },
  {
    name: 'create-data-app: a name',
    ...POST_DATA_APP,
    body: { name: 'Customer Portal Analytics' },
    status: 200,
    answer: { name: '=Customer Portal Analytics' },
    difference: {
      where: 'Data app names',
      why: 'Our contract has data app names alphanumeric (the guest token names the data app by it); a name with spaces is refused.',
      status: 400,
      answer: { error: { code: '=INVALID_REQUEST_BODY', message: 'string' } },
    },
  },
  {
    name: 'create-data-app: a name (alphanumeric)',
    ...POST_DATA_APP,
    body: { name: 'CustomerPortalAnalytics' },
    status: 200,
    answer: { name: '=CustomerPortalAnalytics' },
  },
  {
    name: 'list-data-apps: data apps with their embeds',
    page: 'list-data-apps',
    auth: 'service',
    method: 'GET',
    url: '/api/v2/data-app',
    status: 200,
    answer: {
      data: [
        {
          name: '={{dataAppName}}',
          type: '=embedded',
          createdAt: 'string',
          updatedAt: 'string',
          embedCount: 1,
          embeds: [{ name: 'string', embedId: '={{embedId}}', createdAt: 'string', updatedAt: 'string' }],
        },
      ],
    },
  },
  {
    name: 'create-api-token: a named key for a data app',
    page: 'create-api-token',
    auth: 'service',
    method: 'POST',
    url: '/api/v2/data-app/api-tokens',
    body: { dataAppName: '{{dataAppName}}', name: 'Production API Key' },
    status: 200,
    answer: { key: 'string' },
  },
  {
    name: 'list-api-tokens: the keys of a data app',
    page: 'list-api-tokens',
    auth: 'service',
    method: 'GET',
    url: '/api/v2/data-app/api-tokens?dataAppName={{dataAppName}}',
    status: 200,
    answer: {
      data: [{ key: 'string', name: '=Production API Key', description: 'string', createdAt: 'string' }],
    },
  },

  // whitelist domains (data app key)
  {
    name: 'whitelist-domains: PUT a list',
    page: 'whitelist-domains',
    auth: 'key',
    method: 'PUT',
    url: '/api/v2/data-app/whitelist-domains',
    body: { domains: ['app.example.com', '*.customer.com', 'localhost:3000'] },
    status: 200,
  },
  {
    name: 'whitelist-domains: GET the list',
    page: 'whitelist-domains',
    auth: 'key',
    method: 'GET',
    url: '/api/v2/data-app/whitelist-domains',
    status: 200,
    answer: { data: ['=app.example.com', '=*.customer.com', '=localhost:3000'] },
  },
]
