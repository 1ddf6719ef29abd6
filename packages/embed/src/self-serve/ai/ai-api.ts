import type { AiMetricAnswer, AiSuggestion } from '@strata/contract'
import type { RuntimeClient } from '../../api/client.js'

/**
 * The AI pilot's runtime calls (docs/runtime-api.md#ai-pilot), over the element's RuntimeClient (its token,
 * its renewal, its error envelopes): 400 AI_NOT_CONFIGURED and 502 AI_PROVIDER_ERROR arrive as
 * StrataApiError like any other refusal.
 */
export type { AiMetricAnswer, AiSuggestion }

/** POST /ai/metric: a metric for a question in words, validated by the server, not saved. */
export async function askMetric(
  client: RuntimeClient,
  question: string,
  signal?: AbortSignal,
): Promise<AiMetricAnswer> {
  return (await client.call<{ data: AiMetricAnswer }>('POST', '/ai/metric', { question }, signal)).data
}

/** GET /ai/suggestions: metrics worth building on this model, each ready for /preview. */
export async function suggestMetrics(client: RuntimeClient, signal?: AbortSignal): Promise<AiSuggestion[]> {
  return (await client.call<{ data: AiSuggestion[] }>('GET', '/ai/suggestions', undefined, signal)).data
}

/** POST /ai/summary: a few sentences on a metric's result under these dashboard filters. */
export async function summarizeMetric(
  client: RuntimeClient,
  metricId: string,
  dashboardFilter: Readonly<Record<string, unknown>> | undefined,
  signal?: AbortSignal,
): Promise<string> {
  const body = { metricId, ...(dashboardFilter && Object.keys(dashboardFilter).length ? { dashboardFilter } : {}) }
  return (await client.call<{ data: { summary: string } }>('POST', '/ai/summary', body, signal)).data.summary
}
