import type { DrillFilter } from './api/types.js'
import type { FilterValue } from './lib/filters.js'

/** `strata-ready`: every metric has been drawn (or has settled as empty or failed) once. */
export interface StrataReadyDetail {
  readonly embedId: string
  readonly metrics: number
}

/**
 * `strata-error`: a call failed (not for expired tokens, see `strata-token-expired`), or the
 * element stopped: the embed is gone (`AUTHENTICATION_ERROR`, reason `EMBED_GONE`) or renewing
 * the token kept failing (`TOKEN_REFRESH_FAILED`).
 */
export interface StrataErrorDetail {
  readonly code: string
  readonly message: string
  /** HTTP status; 0 when the server could not be reached or the error is the element's own. */
  readonly status: number
  /** The metric whose query failed, when it is one metric's. */
  readonly metricId?: string
  /**
   * The server's `error.details.reason`: `EMBED_GONE` when the embed no longer exists (the
   * element then shows that the dashboard is no longer available and stops).
   */
  readonly reason?: string
}

/** `strata-filter-change`: the end user changed a filter; every filter's value now in effect. */
export interface StrataFilterChangeDetail {
  readonly filters: Readonly<Record<string, FilterValue>>
}

/**
 * `strata-drill-change`: the end user added or removed a drill chip (a value no dashboard filter
 * holds); every chip now in effect, as the `drills` property gives them.
 */
export interface StrataDrillChangeDetail {
  readonly drills: readonly DrillFilter[]
}

/** `strata-token-expired`: the token stopped working; set a new `token` to carry on. */
export interface StrataTokenExpiredDetail {
  readonly embedId: string
}

/** What an end user did to a metric with the builder or a card's menu. */
export interface MetricChange {
  readonly action:
    | 'create'
    | 'update'
    | 'delete'
    | 'hide'
    | 'archive'
    | 'unarchive'
    | 'restore'
    | 'reset'
    | 'keep'
    | 'publish'
    /** The company's mode: taken out of the company's document (company-mode.ts). */
    | 'remove'
  readonly metricId: string
}

/** `strata-metric-change`: the end user created, changed, removed or restored a metric (the dashboard has reloaded). */
export type StrataMetricChangeDetail = MetricChange

export interface StrataEventMap {
  'strata-ready': CustomEvent<StrataReadyDetail>
  'strata-error': CustomEvent<StrataErrorDetail>
  'strata-filter-change': CustomEvent<StrataFilterChangeDetail>
  'strata-drill-change': CustomEvent<StrataDrillChangeDetail>
  'strata-token-expired': CustomEvent<StrataTokenExpiredDetail>
  'strata-metric-change': CustomEvent<StrataMetricChangeDetail>
}

export type StrataEventName = keyof StrataEventMap
export type StrataEventDetail<K extends StrataEventName> = StrataEventMap[K] extends CustomEvent<infer D> ? D : never

/** Dispatches a typed, bubbling, composed event (it crosses shadow roots to reach the page). */
export function emit<K extends StrataEventName>(target: EventTarget, name: K, detail: StrataEventDetail<K>): boolean {
  return target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }))
}

declare global {
  interface HTMLElementEventMap extends StrataEventMap {}
}
