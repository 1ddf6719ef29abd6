import { join, resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { salesDocument } from '../helpers/analytics.js'
import { CHROMIUM, hasChromium } from '../helpers/chromium.js'
import { docsImage } from '../helpers/docs-images.js'
import { removeDir, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'
import { requireService } from '../helpers/services.js'
import { checkAccessibility, STUDIO_DOCS, shootBoth } from '../helpers/studio.js'
import { STUDIO_ADMIN, studioCompany } from '../helpers/studio-company.js'
import { startSnippetSite } from '../helpers/studio-snippets.js'
import { allowOrigin, copySnippet, signIn } from '../helpers/studio-steps.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

/**
 * The studio's embed screens in Chromium, on a server that already has a datasource, a datamart,
 * a workspace with a dashboard and a data app (set up through the API): create an embed, change
 * its access settings, copy its snippets, and run them: the Node snippet's code mints the token
 * on a small backend, the HTML snippet's page shows the dashboard from another origin once the
 * whitelist allows it. Then the data app's keys (shown once, then only their id) and whitelist
 * (an invalid origin is refused with a sentence that says what to type).
 */
const hasPostgres = await requireService('PostgreSQL', '127.0.0.1', 5432)
const ADMIN = STUDIO_ADMIN
const ROOT = resolve(import.meta.dirname, '../../../..')

describe.skipIf(!hasChromium || !hasPostgres)('the studio: embed a dashboard, snippets, keys and whitelist', () => {
  let dataDir: string
  let server: ServerProcess
  let browser: Browser
  let page: Page
  let warehouse: PgWarehouse
  let dataAppKey = ''
  let embedId = ''
  const snippets: Record<string, string> = {}

  /** A call with the data app's key (or another bearer token) that must answer 200: its body. */
  const api = async (method: string, path: string, token: string, body?: object) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), authorization: `Bearer ${token}` },
      body: body ? JSON.stringify(body) : undefined,
    })
    const json = await res.json()
    expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBe(200)
    return json
  }

  beforeAll(async () => {
    warehouse = await createPgWarehouse()
    dataDir = tempDataDir()
    server = await startServer({ env: { DATA_DIR: dataDir }, readyTimeoutMs: 60_000 })
    const company = await studioCompany(server.url, warehouse)
    await company.api('POST', '/api/v2/data-app/import-dashboard', {
      workspaceName: 'main',
      dashboardId: 'sales-overview',
      importDashboardData: salesDocument(warehouse.schema),
    })
    dataAppKey = (await company.api('POST', '/api/v2/data-app', { name: 'salesapp' })).key
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    page = await context.newPage()
    page.setDefaultTimeout(10_000)
    await signIn(page, server.url, ADMIN)
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await warehouse?.drop()
    removeDir(dataDir)
  })

  it('says what to do on the empty embeds screen', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Embeds' }).click()
    await page.getByText('No embed in salesapp yet').waitFor()
    await checkAccessibility(page, 'embeds (empty)')
    await shootBoth(page, '20-embeds-empty')
  })

  it('creates an embed of the dashboard with every flag explained', async () => {
    await page.getByRole('link', { name: 'Create embed' }).click()
    await page.getByRole('heading', { name: 'Create an embed' }).waitFor()
    await expect.poll(() => page.getByLabel('Dashboard', { exact: true }).inputValue()).toBe('sales-overview')
    // every flag has its sentence, tied to it for screen readers
    const underlying = page.getByLabel('See the underlying data and download it')
    expect(await underlying.isChecked()).toBe(false)
    const why = await underlying.getAttribute('aria-describedby')
    expect(await page.locator(`#${why}`).textContent()).toMatch(/rows behind a chart/)
    for (const label of ['Build their own metrics (self-serve)', 'Schedule email reports', 'Ask the AI pilot']) {
      await page.getByLabel(label).waitFor()
    }
    await checkAccessibility(page, 'embed form')
    await page.getByLabel('Name', { exact: true }).fill('Sales for customers')
    await underlying.check()
    await shootBoth(page, '21-embed-form')
    await docsImage(page, 'embed-form', STUDIO_DOCS)
    await page.getByRole('button', { name: 'Create the embed' }).click()
    await page.getByRole('heading', { name: 'Sales for customers' }).waitFor()
    embedId = /emb_[0-9a-f]+/.exec((await page.locator('.lead code').textContent()) ?? '')?.[0] ?? ''
    expect(embedId).toMatch(/^emb_/)
    const settings = (await api('GET', `/api/v2/data-app/embeds/export?embedId=${embedId}`, dataAppKey))._meta
      .embedDataAppAccessSetting
    expect(settings).toMatchObject({ datamartName: 'sales', isAllowUnderlyingData: true, isAllowMetricCreation: false })
  })

  it('changes the access settings, effective for the embed', async () => {
    expect(await page.getByLabel('See the underlying data and download it').isChecked()).toBe(true)
    await page.getByLabel('Build their own metrics (self-serve)').check()
    await page.getByLabel('See the underlying data and download it').uncheck()
    await page.getByRole('button', { name: 'Save access settings' }).click()
    await expect
      .poll(() => page.getByRole('status').allTextContents())
      .toContainEqual(expect.stringMatching(/^Saved\./))
    const settings = (await api('GET', `/api/v2/data-app/embeds/export?embedId=${embedId}`, dataAppKey))._meta
      .embedDataAppAccessSetting
    expect(settings).toMatchObject({ isAllowUnderlyingData: false, isAllowMetricCreation: true })
    // a reload shows what is stored
    await page.reload()
    await page.getByRole('heading', { name: 'Sales for customers' }).waitFor()
    await expect.poll(() => page.getByLabel('Build their own metrics (self-serve)').isChecked()).toBe(true)
    await checkAccessibility(page, 'embed detail')
    await shootBoth(page, '22-embed-detail')
    await docsImage(page, 'embed-settings-snippets', STUDIO_DOCS)
  })

  it('copies each snippet; none holds a key', async () => {
    for (const [id, title] of [
      ['html', 'HTML'],
      ['react', 'React'],
      ['node', 'Node (your backend)'],
    ] as const) {
      const copied = await copySnippet(page, id, title)
      expect(copied).not.toMatch(/sk_[0-9a-f]{12}_/)
      snippets[id] = copied
    }
    expect(snippets.html).toContain(`<strata-dashboard id="strata-embed" embed-id="${embedId}">`)
    expect(snippets.html).toContain(`src="${server.url}/sdk/strata-embed.js"`)
    expect(snippets.react).toContain(`<strata-dashboard ref={ref} embed-id="${embedId}" />`)
    expect(snippets.node).toContain('process.env.STRATA_DATA_APP_KEY')
    expect(snippets.node).toContain("dataAppName: 'salesapp'")
  })

  it('runs the snippets: the Node one mints the token, the HTML one shows the dashboard on a whitelisted site', async () => {
    // the company's site: the Node snippet as copied is its backend (the key from the
    // environment), the HTML snippet its page, on another origin
    const dir = join(ROOT, 'test-results', `studio-snippet-${process.pid}`)
    const site = await startSnippetSite({
      dir,
      nodeSnippet: snippets.node ?? '',
      htmlSnippet: snippets.html ?? '',
      dataAppKey,
      clientId: 'acme',
    })
    const origin = site.origin
    try {
      const other = await browser.newPage()
      // not whitelisted yet: the browser is refused
      await other.goto(`http://${origin}/`)
      await expect
        .poll(() => other.locator('strata-dashboard').getAttribute('data-state'), { timeout: 20_000 })
        .toMatch(/error|unavailable/)
      // allowed in the studio's whitelist
      await allowOrigin(page, 'salesapp', origin)
      await other.reload()
      await expect
        .poll(() => other.locator('strata-dashboard').getAttribute('data-state'), { timeout: 30_000 })
        .toBe('ready')
      await other.screenshot({ path: join(dir, 'snippet-page.png'), fullPage: true })
      await other.close()
    } finally {
      await site.close()
    }
  })

  it('keeps the whitelist to origins: an invalid one names the fix; remove works', async () => {
    for (const [typed, says] of [
      ['https://app.example.com', /Leave out the scheme: type app\.example\.com/],
      ['app.example.com/dashboards', /An origin has no path: type app\.example\.com only/],
    ] as const) {
      await page.getByRole('textbox', { name: 'Origin' }).fill(typed)
      await page.getByRole('button', { name: 'Add the origin' }).click()
      await expect.poll(() => page.locator('#origin-error').textContent()).toMatch(says)
      expect(await page.getByRole('textbox', { name: 'Origin' }).getAttribute('aria-invalid')).toBe('true')
    }
    await checkAccessibility(page, 'whitelist error')
    await shootBoth(page, '23-whitelist-error')
    await docsImage(page, 'whitelist-error-390', { ...STUDIO_DOCS, widths: [390] })
    await page.getByRole('textbox', { name: 'Origin' }).fill('app.example.com')
    await page.getByRole('button', { name: 'Add the origin' }).click()
    await page.getByRole('listitem').filter({ hasText: 'app.example.com' }).waitFor()
    await page.getByRole('button', { name: 'Remove app.example.com' }).click()
    await expect.poll(() => page.getByRole('listitem').filter({ hasText: 'app.example.com' }).count()).toBe(0)
    expect((await api('GET', '/api/v2/data-app/whitelist-domains', dataAppKey)).data).toEqual([
      expect.stringMatching(/^127\.0\.0\.1:\d+$/),
    ])
  })

  it('creates a key shown once, then only its id; revokes it', async () => {
    await page.getByLabel('Key name').fill('production')
    await page.getByLabel('Description').fill('The billing backend that mints guest tokens')
    await page.getByRole('button', { name: 'Create a key' }).click()
    const key = (await page.getByTestId('fresh-key').textContent()) ?? ''
    expect(key).toMatch(/^sk_[0-9a-f]{12}_/)
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('fresh-key-heading')
    await checkAccessibility(page, 'new key')
    await shootBoth(page, '24-key-once')
    await docsImage(page, 'data-app-new-key-390', { ...STUDIO_DOCS, widths: [390] })
    await page.getByRole('button', { name: 'Copy the key' }).click()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key)
    // the key works
    expect((await api('GET', '/api/v2/data-app/whitelist-domains', key)).data).toHaveLength(1)
    await page.getByRole('button', { name: 'I have saved it' }).click()
    expect(await page.getByTestId('fresh-key').count()).toBe(0)
    const keyId = key.split('_').slice(0, 2).join('_')
    const row = page.getByRole('row').filter({ hasText: 'production' })
    expect(await row.textContent()).toContain(`${keyId}_••••••`)
    expect(await page.content()).not.toContain(key)
    // a reload: still masked
    await page.reload()
    await page.getByRole('row').filter({ hasText: 'production' }).waitFor()
    expect(await page.content()).not.toContain(key)
    await shootBoth(page, '25-keys')
    // on a phone the row stacks: the description stays under the name, beside the "Name" label
    const before = page.viewportSize()
    await page.setViewportSize({ width: 390, height: 844 })
    const left = (text: string) =>
      page
        .getByRole('row')
        .filter({ hasText: 'production' })
        .getByText(text, { exact: true })
        .evaluate((el) => el.getBoundingClientRect().left)
    const nameAt = await page
      .getByRole('row')
      .filter({ hasText: 'production' })
      .locator('.cell-label', { hasText: 'Name' })
      .evaluate((el) => el.getBoundingClientRect().right)
    const described = await left('The billing backend that mints guest tokens')
    expect(described).toBeGreaterThan(nameAt)
    expect(described).toBe(
      await page
        .getByRole('row')
        .filter({ hasText: 'production' })
        .locator('.cell-value')
        .first()
        .evaluate((el) => el.getBoundingClientRect().left),
    )
    if (before) await page.setViewportSize(before)
    await page.getByRole('button', { name: 'Revoke key production' }).click()
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Keep it')
    await page.getByRole('button', { name: 'Revoke for good' }).click()
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'production' }).count()).toBe(0)
    const refused = await fetch(`${server.url}/api/v2/data-app/whitelist-domains`, {
      headers: { authorization: `Bearer ${key}` },
    })
    expect(refused.status).toBe(401)
  })

  it('deletes the embed after a confirmation', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Embeds' }).click()
    await page.getByRole('cell', { name: embedId }).waitFor()
    await checkAccessibility(page, 'embeds')
    await shootBoth(page, '26-embeds')
    await page.getByRole('link', { name: 'Sales for customers' }).click()
    await page.getByRole('heading', { name: 'Sales for customers' }).waitFor()
    // a reload after creating does not announce the creation again
    expect(await page.getByText('Embed created.').count()).toBe(0)
    await page.getByRole('button', { name: 'Delete this embed' }).click()
    await page.getByRole('alertdialog', { name: 'Delete Sales for customers?' }).waitFor()
    // the confirmation (a modal dialog) has the focus, on the safe choice
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Keep it')
    await shootBoth(page, '27-embed-delete-confirm')
    await page.getByRole('button', { name: 'Delete for good' }).click()
    await page.getByText('No embed in salesapp yet').waitFor()
    expect((await api('GET', '/api/v2/data-app/embeds', dataAppKey)).data).toEqual([])
  })

  it('creates an embed of one metric: its snippets use <strata-metric> with the metric', async () => {
    await page.getByRole('link', { name: 'Create embed' }).click()
    await page.getByRole('heading', { name: 'Create an embed' }).waitFor()
    await page.getByRole('radio', { name: 'One metric of it' }).check()
    await page.getByLabel('Metric', { exact: true }).selectOption({ label: 'Revenue' })
    await page.getByLabel('Name', { exact: true }).fill('Revenue card')
    await page.getByRole('button', { name: 'Create the embed' }).click()
    await page.getByRole('heading', { name: 'Revenue card' }).waitFor()
    expect(await page.locator('.lead').first().textContent()).toMatch(/Shows the metric Revenue\./)
    const html = (await page.locator('pre[data-snippet="html"]').textContent()) ?? ''
    expect(html).toMatch(
      /<strata-metric id="strata-embed" embed-id="emb_[0-9a-f]+" metric-id="revenue"><\/strata-metric>/,
    )
    const list = (await api('GET', '/api/v2/data-app/embeds', dataAppKey)).data
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({
      name: 'Revenue card',
      embedType: 'metric',
      externalMetric: { metricId: 'revenue' },
    })
  })
})
