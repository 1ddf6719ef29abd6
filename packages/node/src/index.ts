export {
  type ApiErrorCode,
  type ErrorBody,
  StrataError,
  type StrataErrorCode,
  type UnexpectedResponseCode,
} from './errors.js'
export type { components, operations, paths } from './generated/openapi.js'
export type { Dashboards, Metrics, Reports } from './resources/analytics.js'
export type { DataAppEmbeds } from './resources/data-app-embeds.js'
export type { ApiKeys, DataApps, WhitelistDomains } from './resources/data-apps.js'
export type { DashboardEmbeds, Embeds } from './resources/embeds.js'
export type { GuestTokens } from './resources/guest-tokens.js'
export type { Rollups } from './resources/rollups.js'
export type { Datamarts, Datasources, FileContent, Workspaces } from './resources/sources.js'
export { Strata, type StrataOptions } from './strata.js'
export type { Api, Secrets, TransportOptions } from './transport.js'
export type { DashboardDocument, OperationId, QueryParams, RequestBody, ResponseBody } from './types.js'
