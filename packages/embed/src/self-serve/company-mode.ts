import { StrataApiError } from '../api/errors.js'
import type { Comparison, LayoutItem, MetricDefinition } from '../api/types.js'

/**
 * The company's mode, for the studio: on an element with the `company-mode` attribute, what the
 * builder, the layout editor and the card menu's "Remove from dashboard" save goes to the page,
 * not to the end user's copy. The element fires a composed, bubbling event; the page saves the
 * company's document (the studio writes it with `PUT /api/v2/data-app/dashboard`) and calls
 * `detail.respondWith(promise)` synchronously. The builder, editor or menu waits for that
 * promise (a rejection shows as the save's error), then reloads the dashboard as after any save.
 */
export interface CompanyMetricDetail {
  /** The definition as the builder made it (name, chart, query, formats). */
  readonly metric: MetricDefinition
  /**
   * The metric's comparison as the builder leaves it: absent, none (a company metric is written
   * whole, so an absent comparison is one removed).
   */
  readonly comparison?: Comparison
  /** The company metric edited, or undefined for a new one. */
  readonly metricId: string | undefined
  /** Answer with the saved metric's id. */
  respondWith(saved: Promise<string>): void
}

export interface CompanyLayoutDetail {
  readonly layout: readonly LayoutItem[]
  /** Answer with the layout as saved. */
  respondWith(saved: Promise<readonly LayoutItem[]>): void
}

/** A company metric to take off the dashboard: out of the document's metrics and its layout. */
export interface CompanyRemoveDetail {
  readonly metricId: string
  /** Its name, as the confirmation showed it. */
  readonly name: string
  /** Answer once the document is saved without it. */
  respondWith(saved: Promise<unknown>): void
}

export const COMPANY_METRIC_EVENT = 'strata-company-metric'
export const COMPANY_LAYOUT_EVENT = 'strata-company-layout'
export const COMPANY_REMOVE_EVENT = 'strata-company-remove'

/** Whether the element is in the company's mode. */
export const inCompanyMode = (element: Element): boolean => element.hasAttribute('company-mode')

/** Asks the page to save; undefined when the element is not in the company's mode (save as an end user). */
export function companySave<T>(element: Element, type: string, detail: object): Promise<T> | undefined {
  if (!inCompanyMode(element)) return undefined
  let answer: Promise<T> | undefined
  element.dispatchEvent(
    new CustomEvent(type, {
      bubbles: true,
      composed: true,
      detail: {
        ...detail,
        respondWith: (saved: Promise<T>) => {
          answer = saved
        },
      },
    }),
  )
  return (
    answer ??
    Promise.reject(
      new StrataApiError('CLIENT_ERROR', 0, `Nothing on this page saves the company's dashboard (${type})`),
    )
  )
}
