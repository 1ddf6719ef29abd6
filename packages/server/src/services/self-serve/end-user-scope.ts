import type { GuestClaims } from '../../auth/principal.js'
import type { Metric } from '../../query/document.js'
import type { Embed } from '../embeds/embeds.js'
import type { EndUserScope } from '../query/metric-requests.js'
import { storedDefinition } from './definition.js'
import { inheritedRls } from './inherited-rls.js'
import { visibleModel } from './visible-model.js'

/**
 * How an end user's definition (a tenant metric, or a tenant's version of a company one) runs
 * for a token, read against the source's model when the query is planned: its column names as
 * the visible model resolves them (definition.ts `storedDefinition`: a column hidden since it
 * was saved refuses it), and the token's RLS on the company's metrics as restrictions
 * (inherited-rls.ts). `key` holds what else it depends on: the token's RLS values for the
 * company metrics that declare or bind any.
 */
export function endUserScope(claims: GuestClaims, embed: Embed, company: readonly Metric[]): EndUserScope {
  const relevant = new Set(company.filter((m) => m.sql !== undefined || m.rls !== undefined).map((m) => m.metricId))
  const key = JSON.stringify((claims.params.rlsSettings ?? []).filter((e) => relevant.has(e.metricId)))
  return {
    key,
    apply(metric, source, dialect) {
      const restrictions = inheritedRls(claims, company, { model: source.model, dialect })
      if (metric.query === undefined) return { metric, restrictions }
      const visible = visibleModel(source, embed)
      const definition = storedDefinition(
        { name: metric.name, chart: metric.chart, query: metric.query },
        source.model,
        visible,
        metric.metricId,
      )
      return { metric: { ...metric, query: definition.query }, restrictions }
    },
  }
}
