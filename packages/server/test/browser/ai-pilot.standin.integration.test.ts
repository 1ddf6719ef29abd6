/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_EMBED, useBrowserSuite } from '../helpers/browser.js'
import { ARTIFACTS, hasChromium } from '../helpers/chromium.js'
import { type RecordedRequest, startOpenAiStandIn } from '../standins/openai/server.js'

/**
 * The AI controls of `<strata-dashboard>` (docs/web-component.md#ai-controls) in Chromium, against the real
 * server (the demo's DuckDB data) and a local OpenAI-compatible stand-in (test/standins/openai)
 * that answers from a script: the builder's Ask box builds a metric that previews and saves to
 * the dashboard; a provider failure shows in place with the question kept; suggestions list and
 * load; a card's Summarize puts the stand-in's text under its chart, and the stand-in received
 * that tenant's rows only. Without the AI pilot on the embed, or without any provider
 * (LLM_PROVIDERS unset), no AI control shows at all.
 */

const standIn = await startOpenAiStandIn()
afterAll(() => standIn.close())

const PROVIDERS = JSON.stringify({
  standin: { baseUrl: standIn.baseUrl, apiKey: 'sk-standin-ui', model: 'standin-model' },
})
const SHOTS = join(ARTIFACTS, 'ai-pilot')

const AI_METRIC = {
  name: 'Revenue per channel (AI)',
  chart: { type: 'bar', x: 'channel', y: ['revenue'] },
  query: {
    from: 'main.orders',
    measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
    dimensions: [{ name: 'channel', column: 'channel' }],
  },
}
const EXPLANATION = 'Sums order amounts for each sales channel, so you can compare where revenue comes from.'
const createMetric = (metric: unknown, explanation = EXPLANATION) => ({
  toolCall: { name: 'create_metric', arguments: { metric, explanation } },
})
const SUGGESTIONS = [
  {
    name: 'Orders by status',
    metric: {
      name: 'Orders by status',
      chart: { type: 'pie', x: 'status', y: ['orders'] },
      query: {
        from: 'main.orders',
        measures: [{ name: 'orders', aggregate: 'count' }],
        dimensions: [{ name: 'status', column: 'status' }],
      },
    },
  },
  {
    name: 'Average quantity by category',
    metric: {
      name: 'Average quantity by category',
      chart: { type: 'bar', x: 'category', y: ['quantity'] },
      query: {
        from: 'main.orders',
        measures: [{ name: 'quantity', aggregate: 'avg', column: 'quantity' }],
        dimensions: [{ name: 'category', column: 'category' }],
      },
    },
  },
]

/** The access settings of the demo embed for these tests (CHAT creation, AI pilot as given). */
const settings = (ai: boolean, mode: 'CHAT' | 'DRAG_DROP' = 'CHAT') => ({
  isAllowMetricCreation: true,
  metricCreationMode: mode,
  isAllowMetricUpdate: true,
  isAllowMetricDeletion: true,
  isAllowManageMetrics: true,
  isAllowAiPilot: ai,
})

/** Every `/ai/` request the page makes (no AI control may call one when AI is off). */
function aiCalls(page: Page): string[] {
  const calls: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('/ai/')) calls.push(`${r.method()} ${new URL(r.url()).pathname}`)
  })
  return calls
}

/** Holds the page's requests to `pattern` until `release()` (to see a progress state). */
async function hold(page: Page, pattern: string): Promise<() => void> {
  let release = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(pattern, async (route) => {
    await held
    await route.continue()
  })
  return release
}

/** The focused element's id, through shadow roots (run in the page). */
function deepActiveId(): string {
  let el = document.activeElement
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
  return el?.id ?? ''
}

const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: join(SHOTS, `${name}.png`) })
}

describe.skipIf(!hasChromium)('the AI controls in Chromium, against the OpenAI stand-in', () => {
  const b = useBrowserSuite({ env: { LLM_PROVIDERS: PROVIDERS, LLM_TIMEOUT_MS: '20000', RATE_LIMIT: '0' } })
  let acme: string
  let globex: string

  beforeAll(async () => {
    // the company turns on summaries and suggestions for the demo's workspace (a service token)
    const post = async (path: string, body: unknown, token?: string) => {
      const res = await fetch(`${b.server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      })
      const json = (await res.json()) as Record<string, unknown>
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`)
      return json
    }
    const admin = await post('/api/v2/admin-account', {
      firstName: 'Alice',
      email: 'alice@example.com',
      password: 'Str0ng!Pass',
      companyName: 'Acme',
    })
    const service = await post('/api/v2/service-token', {}, (admin.data as { accessToken: string }).accessToken)
    const res = await fetch(`${b.server.url}/api/v2/workspace`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${service.key as string}` },
      body: JSON.stringify({
        name: 'demo',
        connectionType: 'DATAMART',
        datamartName: 'demo_sales',
        isEnableMetricSummary: true,
        isEnableMetricSuggestions: true,
      }),
    })
    if (!res.ok) throw new Error(`PUT /api/v2/workspace: ${res.status} ${await res.text()}`)
    await b.allowOnDemoEmbed(settings(true))
    acme = await b.mint('acme', { isEnableMetricUpdation: true, isEnableManageMetrics: true })
    globex = await b.mint('globex', { isEnableMetricUpdation: true, isEnableManageMetrics: true })
  }, 60_000)

  const since = (n: number): RecordedRequest[] => standIn.requests.slice(n)
  const openBuilder = async (page: Page) => {
    await page.locator('#d [part~="new-metric-button"]').click()
    await page.locator('#d #bd-ask').waitFor()
  }

  it('Ask: the stand-in’s metric previews in the builder with its explanation, then saves to the dashboard', async () => {
    const page = await b.openDashboard(acme, { viewport: { width: 1440, height: 1000 } })
    await openBuilder(page)
    // the Ask box has focus: a question in words
    await expect.poll(() => page.evaluate(deepActiveId)).toBe('bd-ask')
    await page.locator('#d .bd-preview').waitFor()
    await shot(page, 'ask-idle')
    const before = standIn.requests.length
    standIn.script(createMetric(AI_METRIC))
    // the call is held in the browser until the progress state is seen (a provider takes seconds)
    const release = await hold(page, '**/ai/metric')
    await page.locator('#d #bd-ask').fill('Revenue by channel')
    await page.locator('#d #bd-ask').press('Enter')
    // asking: progress with a Cancel, the question kept read-only
    await page.locator('#d .bd-ai-status.asking').waitFor()
    expect(await page.locator('#d #bd-ask-cancel').isVisible()).toBe(true)
    expect(await page.locator('#d #bd-ask').getAttribute('readonly')).not.toBeNull()
    await shot(page, 'ask-asking')
    release()
    await page.locator('#d .bd-ai-status.answered').waitFor({ timeout: 20_000 })
    expect(await page.locator('#d .bd-ai-status.answered').textContent()).toContain(EXPLANATION)
    // what the model was asked: the question, with the create_metric tool
    const [request] = since(before)
    expect(JSON.stringify(request?.body.messages)).toContain('Revenue by channel')
    expect(request?.body.tools?.map((t) => t.function.name)).toEqual(['create_metric'])
    // the builder holds the metric: its table, a measure and a dimension, its name; the preview draws it
    expect(await page.locator('#d #bd-table').inputValue()).toBe('main.orders')
    await expect.poll(() => page.locator('#d [data-zone="measures"] .bd-item').count()).toBe(1)
    await expect.poll(() => page.locator('#d [data-zone="dimensions"] .bd-item').count()).toBe(1)
    expect(await page.locator('#d #bd-name').inputValue()).toBe(AI_METRIC.name)
    expect(await page.locator('#d #bd-chart-bar').isChecked()).toBe(true)
    await page.locator('#d .bd-preview[data-state="ready"] canvas').waitFor({ timeout: 20_000 })
    await shot(page, 'ask-answered')
    // saved through the normal path: the card is on the dashboard
    await page.locator('#d #bd-save').click()
    await page
      .locator('#d [part~="card"]', { has: page.locator(`[part~="card-title"]:text-is("${AI_METRIC.name}")`) })
      .locator('canvas')
      .waitFor({ timeout: 20_000 })
    expect(await page.locator('#d dialog[open]').count()).toBe(0)
    await page.context().close()
  })

  it('a provider error shows in place with the question kept; Cancel stops a slow question', async () => {
    const page = await b.openDashboard(acme)
    await openBuilder(page)
    standIn.script({ status: 500 })
    await page.locator('#d #bd-ask').fill('Revenue by month for the last year')
    await page.locator('#d #bd-ask-submit').click()
    const error = page.locator('#d .bd-ai-status.failed[role="alert"]')
    await error.waitFor({ timeout: 20_000 })
    expect(await error.textContent()).toMatch(/did not come back with a metric[\s\S]*AI_PROVIDER_ERROR · 502/)
    expect(await page.locator('#d #bd-ask').inputValue()).toBe('Revenue by month for the last year')
    // nothing was put into the builder
    expect(await page.locator('#d [data-zone="measures"] .bd-item').count()).toBe(0)
    await shot(page, 'ask-error')
    // a slow provider: Cancel (or Escape) gives the box back, the builder stays open
    standIn.script({ hang: true })
    await page.locator('#d .bd-ai-status.failed button').click()
    await page.locator('#d .bd-ai-status.asking').waitFor()
    await page.keyboard.press('Escape')
    await page.locator('#d .bd-ai-status.asking').waitFor({ state: 'detached' })
    expect(await page.locator('#d dialog[open]').count()).toBe(1)
    expect(await page.locator('#d #bd-ask').inputValue()).toBe('Revenue by month for the last year')
    standIn.releaseHanging()
    // narrow: the band stacks above the builder's columns
    await page.setViewportSize({ width: 390, height: 844 })
    await page.locator('#d #bd-ask').fill('Revenue by month for the last year')
    await shot(page, 'ask-390')
    standIn.script(createMetric(AI_METRIC))
    await page.locator('#d #bd-ask-submit').click()
    await page.locator('#d .bd-ai-status.answered').waitFor({ timeout: 20_000 })
    await shot(page, 'ask-answered-390')
    await page.context().close()
  })

  it('suggestions: loaded on demand, one chosen previews in the builder; an empty answer says so', async () => {
    const page = await b.openDashboard(acme)
    await openBuilder(page)
    const before = standIn.requests.length
    standIn.script({ toolCall: { name: 'suggest_metrics', arguments: { suggestions: SUGGESTIONS } } })
    const release = await hold(page, '**/ai/suggestions')
    await page.locator('#d #bd-suggest-toggle').click()
    expect(await page.locator('#d #bd-suggest-toggle').getAttribute('aria-expanded')).toBe('true')
    await page.locator('#d .bd-suggest-skeleton').first().waitFor()
    await shot(page, 'suggestions-loading')
    release()
    await page.locator('#d .bd-suggestion').first().waitFor({ timeout: 20_000 })
    expect(since(before)[0]?.body.tools?.map((t) => t.function.name)).toEqual(['suggest_metrics'])
    expect(await page.locator('#d .bd-suggestion-name').allInnerTexts()).toEqual(SUGGESTIONS.map((s) => s.name))
    await page.locator('#d .bd-suggestion[data-suggestion="Orders by status"]').click()
    expect(
      await page.locator('#d .bd-suggestion[data-suggestion="Orders by status"]').getAttribute('aria-pressed'),
    ).toBe('true')
    expect(await page.locator('#d #bd-name').inputValue()).toBe('Orders by status')
    expect(await page.locator('#d #bd-chart-pie').isChecked()).toBe(true)
    await page.locator('#d .bd-preview[data-state="ready"] canvas').waitFor({ timeout: 20_000 })
    await shot(page, 'suggestions')
    // closed and opened again: asked again; nothing to suggest is said, not an empty box
    await page.locator('#d .dialog-head [aria-label="Close"]').click()
    const discard = page.locator('#d strata-self-serve-overlay dialog[open] .button.danger')
    if (await discard.count()) await discard.click()
    standIn.script({ toolCall: { name: 'suggest_metrics', arguments: { suggestions: [] } } })
    await openBuilder(page)
    await page.locator('#d #bd-suggest-toggle').click()
    await page.locator('#d #bd-suggest-panel [role="status"]:text("No suggestions")').waitFor({ timeout: 20_000 })
    await shot(page, 'suggestions-empty')
    await page.context().close()
  })

  it('Summarize: the stand-in’s text under the card, from that tenant’s rows only; stale on a filter change; dismissed', async () => {
    const page = await b.openDashboard(acme)
    const summaryBodies: { dashboardFilter?: Record<string, unknown> }[] = []
    page.on('request', (r) => {
      if (r.url().endsWith('/ai/summary')) summaryBodies.push(r.postDataJSON())
    })
    const card = page.locator('#d .card[data-metric-id="revenue_by_category"]')
    /** The other cards' boxes, relative to the grid (scrolling aside). */
    const others = () =>
      page.evaluate(() => {
        const root = document.getElementById('d')?.shadowRoot
        const grid = root?.querySelector('.grid')?.getBoundingClientRect()
        return [...(root?.querySelectorAll('.card') ?? [])]
          .filter((c) => c.getAttribute('data-metric-id') !== 'revenue_by_category')
          .map((c) => {
            const r = c.getBoundingClientRect()
            return [r.left - (grid?.left ?? 0), r.top - (grid?.top ?? 0), r.width, r.height].join(',')
          })
      })
    const placed = await others()
    const before = standIn.requests.length
    const SUMMARY = 'Electronics leads revenue by a wide margin; Books trails the other categories.'
    standIn.script({ text: SUMMARY })
    const release = await hold(page, '**/ai/summary')
    await card.locator('[part~="card-menu-button"]').click()
    await page.locator('#d [part~="card-menu-panel"] [data-action="summarize"]').waitFor()
    await shot(page, 'summary-menu')
    await page.locator('#d [part~="card-menu-panel"] [data-action="summarize"]').click()
    const line = card.locator('[part~="ai-summary"]')
    await line.locator(':text("Summarizing")').waitFor()
    expect(await line.getAttribute('data-state')).toBe('loading')
    expect(await others()).toEqual(placed)
    await card.scrollIntoViewIfNeeded()
    await shot(page, 'summary-loading')
    release()
    await line.locator(`:text("${SUMMARY}")`).waitFor({ timeout: 20_000 })
    expect(await line.getAttribute('data-state')).toBe('ready')
    // the other cards did not move
    expect(await others()).toEqual(placed)
    await card.scrollIntoViewIfNeeded()
    await shot(page, 'summary')
    // what the stand-in got: exactly acme's rows of this metric under the same filters, none of globex's
    const [request] = since(before)
    const user = String(request?.body.messages?.find((m) => m.role === 'user')?.content ?? '')
    const sent = JSON.parse(user.slice(user.indexOf('JSON):\n') + 'JSON):\n'.length)) as Record<string, unknown>[]
    const rowsOf = async (token: string) => {
      const res = await fetch(`${b.server.url}/api/v2/embed/runtime/${DEMO_EMBED}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          metricId: 'revenue_by_category',
          dashboardFilter: summaryBodies[0]?.dashboardFilter ?? {},
        }),
      })
      return ((await res.json()) as { data: Record<string, unknown>[] }).data
    }
    const mine = await rowsOf(acme)
    const theirs = await rowsOf(globex)
    expect(sent.length).toBeGreaterThan(0)
    expect(sent).toEqual(mine.slice(0, sent.length))
    expect(JSON.stringify(sent)).not.toEqual(JSON.stringify(theirs.slice(0, sent.length)))
    // the filters change: the line is marked stale, with a Refresh
    await page.evaluate(() =>
      (document.getElementById('d') as HTMLElement & { setFilter(n: string, v: unknown): void }).setFilter('channel', [
        'Web',
      ]),
    )
    await expect.poll(() => line.getAttribute('data-state')).toBe('stale')
    expect(await card.locator('[part~="ai-summary-refresh"]').isVisible()).toBe(true)
    await shot(page, 'summary-stale')
    // refreshed under the new filters, then dismissed: the card is as before
    standIn.script({ text: 'Only web orders: Electronics still leads.' })
    await card.locator('[part~="ai-summary-refresh"]').click()
    await line.locator(':text("Only web orders")').waitFor({ timeout: 20_000 })
    expect(summaryBodies[1]?.dashboardFilter).toMatchObject({ channel: ['Web'] })
    await card.locator('[part~="ai-summary-dismiss"]').click()
    expect(await card.locator('[part~="ai-summary"]').count()).toBe(0)
    // a provider failure shows in the line, with Try again
    standIn.script({ status: 503 })
    await card.locator('[part~="card-menu-button"]').click()
    await page.locator('#d [part~="card-menu-panel"] [data-action="summarize"]').click()
    await card.locator('[part~="ai-summary"][data-state="error"]').waitFor({ timeout: 20_000 })
    expect(await line.textContent()).toMatch(/Could not summarize/)
    await shot(page, 'summary-error')
    standIn.script({ text: SUMMARY })
    await line.locator('button:text("Try again")').click()
    await line.locator(`:text("${SUMMARY}")`).waitFor({ timeout: 20_000 })
    await page.context().close()
    // narrow: the line under the card at 390 px
    const narrow = await b.openDashboard(acme, { viewport: { width: 390, height: 844 } })
    const small = narrow.locator('#d .card[data-metric-id="revenue_by_category"]')
    standIn.script({ text: SUMMARY })
    await small.scrollIntoViewIfNeeded()
    await small.locator('[part~="card-menu-button"]').click()
    await narrow.locator('#d [part~="card-menu-panel"] [data-action="summarize"]').click()
    await small.locator(`[part~="ai-summary"] :text("${SUMMARY}")`).waitFor({ timeout: 20_000 })
    await small.scrollIntoViewIfNeeded()
    await shot(narrow, 'summary-390')
    await narrow.context().close()
  })

  it('DRAG_DROP mode with the AI pilot: the builder has no Ask box but offers Suggestions', async () => {
    await b.allowOnDemoEmbed(settings(true, 'DRAG_DROP'))
    try {
      const load = await fetch(`${b.server.url}/api/v2/embed/runtime/${DEMO_EMBED}`, {
        headers: { authorization: `Bearer ${acme}` },
      })
      expect(((await load.json()) as { ai: unknown }).ai).toEqual({ metric: false, summary: true, suggestions: true })
      const page = await b.openDashboard(acme)
      await page.locator('#d [part~="new-metric-button"]').click()
      await page.locator('#d #bd-suggest-toggle').waitFor()
      expect(await page.locator('#d #bd-ask').count()).toBe(0)
      // focus starts on the table, as in a builder without AI
      await expect.poll(() => page.evaluate(deepActiveId)).toBe('bd-table')
      await shot(page, 'suggest-only')
      await page.context().close()
    } finally {
      await b.allowOnDemoEmbed(settings(true))
    }
  })

  it('without the AI pilot on the embed: no Ask box, no suggestions, no Summarize, no AI call', async () => {
    await b.allowOnDemoEmbed(settings(false, 'DRAG_DROP'))
    try {
      const load = await fetch(`${b.server.url}/api/v2/embed/runtime/${DEMO_EMBED}`, {
        headers: { authorization: `Bearer ${acme}` },
      })
      expect(((await load.json()) as { ai: unknown }).ai).toEqual({ metric: false, summary: false, suggestions: false })
      const page = await b.openDashboard(acme)
      const calls = aiCalls(page)
      await page.locator('#d [part~="new-metric-button"]').click()
      await page.locator('#d #bd-table').waitFor()
      expect(await page.locator('#d .bd-ai, #d #bd-ask, #d #bd-suggest-toggle').count()).toBe(0)
      await page.keyboard.press('Escape')
      await page.locator('#d .card[data-metric-id="revenue_by_category"] [part~="card-menu-button"]').click()
      await page.locator('#d [part~="card-menu-panel"] [data-action]').first().waitFor()
      expect(await page.locator('#d [data-action="summarize"]').count()).toBe(0)
      expect(calls).toEqual([])
      await page.context().close()
      // CHAT mode without the AI pilot: no "New metric" at all
      await b.allowOnDemoEmbed(settings(false, 'CHAT'))
      const chat = await b.openDashboard(acme)
      await chat.locator('#d [part~="card-menu-button"]').first().waitFor()
      expect(await chat.locator('#d [part~="new-metric-button"]').count()).toBe(0)
      await chat.context().close()
    } finally {
      await b.allowOnDemoEmbed(settings(true))
    }
  })
})

describe.skipIf(!hasChromium)('the AI controls in Chromium without LLM_PROVIDERS', () => {
  const b = useBrowserSuite()

  it('shows no AI control even with the AI pilot on the embed', async () => {
    await b.allowOnDemoEmbed(settings(true, 'DRAG_DROP'))
    const token = await b.mint('acme', { isEnableMetricUpdation: true, isEnableManageMetrics: true })
    const page = await b.openDashboard(token)
    const calls = aiCalls(page)
    await page.locator('#d [part~="new-metric-button"]').click()
    await page.locator('#d #bd-table').waitFor()
    expect(await page.locator('#d .bd-ai, #d #bd-ask, #d #bd-suggest-toggle').count()).toBe(0)
    await page.keyboard.press('Escape')
    await page.locator('#d .card[data-metric-id="revenue_by_category"] [part~="card-menu-button"]').click()
    await page.locator('#d [part~="card-menu-panel"] [data-action]').first().waitFor()
    expect(await page.locator('#d [data-action="summarize"]').count()).toBe(0)
    await page.context().close()
    // CHAT mode: without a provider there is no chat, so no "New metric"
    await b.allowOnDemoEmbed(settings(true, 'CHAT'))
    const chat = await b.openDashboard(token)
    await chat.locator('#d [part~="card-menu-button"]').first().waitFor()
    expect(await chat.locator('#d [part~="new-metric-button"]').count()).toBe(0)
    expect(calls).toEqual([])
    await chat.context().close()
  })
})
