import type { ErrorCode } from '../errors.js'

/**
 * One line per error code, as the error responses of `/openapi.json` describe it when an
 * operation says nothing more specific (docs/errors.md has the full table). A code added to
 * ERROR_CODES fails to compile until it is described here.
 */
export const ERROR_MEANINGS: Record<ErrorCode, string> = {
  INVALID_REQUEST_BODY:
    'The request failed validation: a missing, undeclared or wrongly typed field, malformed JSON or a bad URL escape. The message names the field.',
  AUTHENTICATION_ERROR: 'The bearer token is missing, invalid, expired or revoked.',
  AUTHENTICATION_ERR: 'The data app API key is missing, invalid or revoked.',
  AUTH_ERROR: 'The service token is missing, invalid or revoked.',
  INVALID_DATA_APP_API_KEY: 'The data app API key is missing, invalid or revoked.',
  UNAUTHORIZED:
    "The guest token does not allow this (an id outside allowedEmbeds, a permission it lacks, a hidden filter), or the page's origin is not in the data app's whitelist-domains.",
  INVALID_WORKSPACE_NAME: 'No workspace of the organization has that name.',
  WORKSPACE_ID_ERROR: 'No workspace of the organization has that workspaceName.',
  INVALID_DASHBOARD_ID: 'No dashboard with that dashboardId in the workspace.',
  TEMPLATE_DASHBOARD_ERROR: 'No dashboard with that templateDashboardId in the workspace.',
  INVALID_METRIC_ID: 'The dashboard has no metric with that metricId.',
  EMBED_NOT_FOUND: 'No embed with that embedId.',
  INVALID_EMBED_ID: 'This data app has no embed with that embedId.',
  EMBED_PARAM_ERROR: 'The embed (or the metric in it) is unknown for this data app.',
  INVALID_DATAMART: 'accessSettings.datamartName names no datamart of the organization.',
  INSUFFICIENT_PERMISSIONS:
    'The embed belongs to another data app of the organization; in the runtime, the action is off in the embed settings or the token permissions.',
  INVALID_ACCESS_SETTINGS: 'accessSettings has an undeclared field or a wrongly typed value; the message names it.',
  CONFLICTING_UPDATE: 'joinModel and the legacy isIncrementalJoin disagree.',
  RATE_LIMIT_EXCEEDED:
    'Too many requests from this client in the window; the Retry-After header gives the seconds until it resets.',
  DATA_APP_NOT_FOUND: 'No data app of the organization has that name.',
  DATASOURCE_NAME_ERROR: 'The datasource name does not resolve (in this workspace).',
  DATAMART_NAME_ERROR: 'The datamart name does not resolve in this workspace.',
  DATASOURCE_ID_ERROR: 'No datasource has that id (or name).',
  WORKSPACE_DOES_NOT_EXIST: 'No workspace of the organization has that name.',
  INVALID_DATASOURCE_NAME: 'The datasource name is missing where the connection type needs it, or names no datasource.',
  INVALID_DATAMART_NAME: 'The datamart name is missing where the connection type needs it, or names no datamart.',
  RESET_PASSWORD_ERROR:
    'The current password is wrong, the new one equals it, or it breaks the rule (8+ characters with an upper and a lower case letter, a digit and a special character, no spaces).',
  SELFHOSTED_APP_ERROR: 'The instance runs with SELF_HOSTED=false, which turns this operation off.',
  INTERNAL_SERVER_ERROR: 'The server failed; the cause is logged with the request id (x-request-id).',
  APP_FILTER_PARAM_ERROR:
    'A guest token filter names no dashboard (dashboardAppFilters[].dashboardId, an embed id included) or no metric (appFilters[].metricId) of this data app.',
  RLS_SETTINGS_PARAM_ERROR: 'A guest token rlsSettings[].metricId names no metric of a dashboard this data app embeds.',
  CLIENT_ID_ERROR:
    'The clientId cannot select a tenant here: "None" where a tenancy is configured, or not a database of the datasource under DATABASE tenancy.',
  DASHBOARD_PARAM_ERROR:
    'The dashboard the request names is not one of the workspace that this data app embeds (v1 guest token params.dashboard.id).',
  INVALID_REQUEST: 'The admin account already exists; sign in instead.',
  USER_NOT_FOUND: 'No admin account has this email (compared case-insensitively).',
  INVALID_CREDENTIALS: 'The password is wrong.',
  DATA_APP_ALREADY_EXISTS: 'The organization already has a data app with that name.',
  NOT_FOUND: 'No route answers this method and path.',
  UNSUPPORTED_MEDIA_TYPE: 'A body was sent without Content-Type: application/json.',
  PAYLOAD_TOO_LARGE: 'The body is larger than BODY_LIMIT (1 MiB by default).',
  SERVICE_UNAVAILABLE:
    'The server is draining after SIGTERM (retry on another instance) or its metadata store is unreachable (retry shortly).',
  DATASOURCE_CONNECTION_ERROR:
    "The warehouse could not be reached or refused the credentials; the message gives the driver's reason.",
  DATASOURCE_NOT_SUPPORTED:
    'The datasource needs what its server cannot do (e.g. a ClickHouse server too old for query parameters).',
  QUERY_TIMEOUT: 'The query ran longer than QUERY_TIMEOUT_MS and was cancelled, on the database side too.',
  QUERY_ERROR: "The warehouse rejected or failed the query; the message is the engine's own.",
  EMAIL_NOT_CONFIGURED: 'Email reports need SMTP_URL and EMAIL_FROM on the server; no report route works without them.',
  EMAIL_SEND_FAILED:
    'The SMTP server refused the report or could not be reached; the report keeps its schedule and shows the error in its status.',
  AI_NOT_CONFIGURED:
    "No AI provider serves this workspace: LLM_PROVIDERS is unset, or names no provider the workspace's llmName picks.",
  AI_PROVIDER_ERROR:
    'The AI provider failed: it did not answer within LLM_TIMEOUT_MS, answered an error status or more than LLM_MAX_ANSWER_BYTES, or its answer was not a valid metric even after one retry.',
}
