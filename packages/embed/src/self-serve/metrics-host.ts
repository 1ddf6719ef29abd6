import type { nothing, TemplateResult } from 'lit'
import type { RuntimeClient } from '../api/client.js'
import type { StrataApiError } from '../api/errors.js'
import type { Drill, QueryResult, RuntimeEmbed, RuntimeMetric } from '../api/types.js'
import type { Visual } from '../charts/build.js'
import type { MetricState } from '../embed-controller.js'
import type { MetricChange } from '../events.js'

/**
 * What the dashboard gives the self-serve module (loaded on demand): its API client, the
 * loaded embed, and a way to reload it. Types only: importing this costs the entry nothing.
 */
export interface SelfServeHost {
  readonly element: HTMLElement
  readonly client: RuntimeClient
  embed(): RuntimeEmbed | undefined
  /** Loads the embed again (one request) and queries its metrics; then focuses `focusMetricId`'s card. */
  reload(focusMetricId?: string): Promise<void>
  /** A chart, table or number for a result, drawn as the cards draw them. */
  visual(metric: RuntimeMetric, result: QueryResult): Visual
  locale(): string | undefined
  /** The dashboard filters in effect (the preview runs under them, as the card will). */
  dashboardFilter(): Readonly<Record<string, unknown>> | undefined
  /** A card's drill-down in effect (its chips and time-series levels), for its underlying rows. */
  drill?(metricId: string): Drill | undefined
  /** Re-renders the dashboard (the toolbar and the card menus follow the session's state). */
  requestUpdate(): void
  /** A failed call: `strata-error` on the element. */
  report(error: StrataApiError): void
  /** `strata-metric-change` on the element. */
  changed(change: MetricChange): void
}

/** The lazy module's surface, as the dashboard uses it. */
export interface SelfServeModule {
  createSession(host: SelfServeHost): SelfServeSessionApi
}

export interface SelfServeSessionApi {
  /** The toolbar's self-serve controls ("New metric", "Archived"), for the header. */
  toolbar(): TemplateResult | typeof nothing
  /** A card's menu (Edit, Archive, Publish, Delete or Hide), or nothing when none applies. */
  cardMenu(metric: RuntimeMetric): TemplateResult | typeof nothing
  /** The line under a card's body (its AI summary), or nothing. */
  cardBelow(state: MetricState): TemplateResult | typeof nothing
  /** A note under the card's header (the company updated this metric). */
  cardNote(state: MetricState): TemplateResult | typeof nothing
  /** The builder dialog, confirmations and notices: rendered once, at the end of the element. */
  overlays(): TemplateResult
  /** The underlying-rows dialog under `drill` ("See these rows"); false when the dialog is not there. */
  viewRows(metric: RuntimeMetric, opener: HTMLElement | null, drill?: Drill, segment?: string): boolean
}
