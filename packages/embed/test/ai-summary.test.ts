import { describe, expect, it } from 'vitest'
import type { RuntimeClient } from '../src/api/client.js'
import type { RuntimeMetric } from '../src/api/types.js'
import { CardSummaries } from '../src/self-serve/ai/ai-summary.js'
import type { SelfServeHost } from '../src/self-serve/metrics-host.js'

describe('CardSummaries', () => {
  let filter: Record<string, unknown> = {}
  const client = {
    call: async () => ({ data: { summary: 'Hardware leads.' } }),
  } as unknown as RuntimeClient
  const host = { client, dashboardFilter: () => filter, requestUpdate: () => {} } as unknown as SelfServeHost
  const metric = { metricId: 'm1', name: 'Revenue by category', chart: { type: 'bar' } } as unknown as RuntimeMetric

  it('marks a summary stale when the filters change, or when the metric is another definition', async () => {
    const summaries = new CardSummaries(host)
    await summaries.summarize(metric)
    const state = summaries.get('m1')
    expect(state).toMatchObject({ status: 'ready', text: 'Hardware leads.' })
    if (!state) return
    // the same definition in another object (the dashboard loaded again): still current
    expect(summaries.staleness(state, structuredClone(metric))).toBe('')
    expect(summaries.staleness(state, { ...metric, chart: { type: 'line' } } as RuntimeMetric)).toBe('metric')
    filter = { channel: ['Web'] }
    expect(summaries.staleness(state, metric)).toBe('filters')
  })
})
