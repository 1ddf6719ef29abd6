import { Dashboards, Metrics, Reports } from './resources/analytics.js'
import { DataAppEmbeds } from './resources/data-app-embeds.js'
import { ApiKeys, DataApps, WhitelistDomains } from './resources/data-apps.js'
import { DashboardEmbeds, Embeds } from './resources/embeds.js'
import { GuestTokens } from './resources/guest-tokens.js'
import { Rollups } from './resources/rollups.js'
import { Datamarts, Datasources, Workspaces } from './resources/sources.js'
import { type Api, createTransport, type TransportOptions } from './transport.js'

/**
 * The server's URL and the secrets: at least one of `apiKey` and `serviceToken` (checked when
 * constructed, so that `process.env` values can be passed as they are).
 */
export type StrataOptions = TransportOptions

/**
 * The Strata API from a backend. With the data app API key: guest tokens, embeds, metrics,
 * dashboard lists, reports, whitelist domains. With the service token: datasources, datamarts,
 * workspaces, data apps, API keys, dashboard documents and rollups. A method whose secret was not given
 * rejects before sending; a failure the server answers rejects with a StrataError.
 *
 * ```ts
 * const strata = new Strata({ baseUrl: 'https://analytics.example.com', apiKey: process.env.STRATA_API_KEY })
 * const { token } = await strata.guestTokens.create({ dataAppName: 'salesapp', clientId: 'acme' })
 * ```
 */
export class Strata {
  readonly guestTokens: GuestTokens
  readonly embeds: Embeds
  readonly dashboardEmbeds: DashboardEmbeds
  readonly metrics: Metrics
  readonly dashboards: Dashboards
  readonly reports: Reports
  readonly whitelistDomains: WhitelistDomains
  readonly dataApps: DataApps
  readonly apiKeys: ApiKeys
  readonly dataAppEmbeds: DataAppEmbeds
  readonly datasources: Datasources
  readonly datamarts: Datamarts
  readonly workspaces: Workspaces
  readonly rollups: Rollups
  /** The underlying openapi-fetch client, for an operation this class does not wrap yet. */
  readonly api: Api

  constructor(options: StrataOptions) {
    if (!options.apiKey && !options.serviceToken) throw new TypeError('new Strata() needs an apiKey or a serviceToken')
    const api = createTransport(options)
    this.api = api
    this.guestTokens = new GuestTokens(api)
    this.embeds = new Embeds(api)
    this.dashboardEmbeds = new DashboardEmbeds(api)
    this.metrics = new Metrics(api)
    this.dashboards = new Dashboards(api)
    this.reports = new Reports(api)
    this.whitelistDomains = new WhitelistDomains(api)
    this.dataApps = new DataApps(api)
    this.apiKeys = new ApiKeys(api)
    this.dataAppEmbeds = new DataAppEmbeds(api)
    this.datasources = new Datasources(api)
    this.datamarts = new Datamarts(api)
    this.workspaces = new Workspaces(api)
    this.rollups = new Rollups(api)
  }
}
