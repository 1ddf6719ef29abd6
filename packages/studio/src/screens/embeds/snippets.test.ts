import { transformSync } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { htmlSnippet, nodeSnippet, reactSnippet } from './snippets.js'

const dashboard = {
  server: 'https://bi.example.com/analytics',
  dataApp: 'salesapp',
  embedId: 'emb_1',
  embedType: 'dashboard',
} as const

describe('the embed snippets', () => {
  it('name the element, the embed and the server; a metric embed uses <strata-metric> with its metric', () => {
    expect(htmlSnippet(dashboard)).toContain(
      '<script type="module" src="https://bi.example.com/analytics/sdk/strata-embed.js">',
    )
    expect(htmlSnippet(dashboard)).toContain('<strata-dashboard id="strata-embed" embed-id="emb_1"></strata-dashboard>')
    const metric = { ...dashboard, embedType: 'metric', metricId: 'revenue' } as const
    expect(htmlSnippet(metric)).toContain(
      '<strata-metric id="strata-embed" embed-id="emb_1" metric-id="revenue"></strata-metric>',
    )
    expect(reactSnippet(metric)).toContain('<strata-metric ref={ref} embed-id="emb_1" metric-id="revenue" />')
  })
  it('escape what they quote', () => {
    const odd = { ...dashboard, embedId: 'a"b<c', dataApp: "it's" }
    expect(htmlSnippet(odd)).toContain('embed-id="a&quot;b&lt;c"')
    expect(nodeSnippet(odd)).toContain("dataAppName: 'it\\'s'")
  })
  it('read the key from the environment, and are code that parses (JSX for React, ESM for Node)', () => {
    const node = nodeSnippet(dashboard)
    expect(node).toContain('apiKey: process.env.STRATA_DATA_APP_KEY')
    expect(node).not.toMatch(/sk_[0-9a-f]/)
    expect(() => transformSync(node, { loader: 'js', format: 'esm' })).not.toThrow()
    expect(() => transformSync(reactSnippet(dashboard), { loader: 'jsx', format: 'esm' })).not.toThrow()
    expect(() => transformSync('export const x = <div', { loader: 'jsx' })).toThrow() // the check can fail
  })
})
