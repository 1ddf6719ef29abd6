/// <reference lib="dom" />
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ARTIFACTS, CHROMIUM, hasChromium } from '../helpers/chromium.js'
import { removeDir, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'

/**
 * The API reference at /docs in a real browser (Debian's chromium through playwright-core):
 * under its Content-Security-Policy it loads with no console error (no inline style or script
 * refused, no request failed) and lists every operation of /openapi.json, with the examples.
 * It is opened by a host name on plain http, as a LAN deployment would serve it, where a policy
 * that upgrades requests to https would break every script. Screenshots are kept as artifacts.
 */
const HOST = 'strata.test'

interface Problems {
  readonly errors: string[]
}

/** /docs in a new page, recording console errors, page errors, CSP violations and failed requests. */
async function openDocs(browser: Browser, server: ServerProcess, width: number): Promise<{ page: Page } & Problems> {
  const page = await browser.newPage({ viewport: { width, height: 900 } })
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`))
  page.on('requestfailed', (r) => errors.push(`request: ${r.url()} ${r.failure()?.errorText ?? ''}`))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`CSP ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    )
  })
  await page.goto(`http://${HOST}:${server.port}/docs`)
  await page.locator('.opblock').first().waitFor({ timeout: 20_000 })
  return { page, errors }
}

describe.skipIf(!hasChromium)('the API reference (/docs) in Chromium', () => {
  let dataDir: string
  let server: ServerProcess
  let browser: Browser
  let operations: number
  beforeAll(async () => {
    dataDir = tempDataDir()
    server = await startServer({ env: { DATA_DIR: dataDir } })
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, object> }
    operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0)
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // a name that is not localhost: Chromium treats its plain http as insecure, as on a LAN
      args: ['--no-sandbox', `--host-resolver-rules=MAP ${HOST} 127.0.0.1`],
    })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    removeDir(dataDir)
  })

  it('loads without a console error and lists every operation, with its examples', async () => {
    mkdirSync(ARTIFACTS, { recursive: true })
    const { page, errors } = await openDocs(browser, server, 1440)
    await expect.poll(() => page.locator('.opblock').count()).toBe(operations)
    expect(await page.locator('.opblock-tag').allTextContents()).toEqual(
      expect.arrayContaining(['datasources', 'embeds', 'embed runtime', 'guest tokens']),
    )
    expect(await page.title()).toBe('Strata API reference')
    // an operation opens with its description and its example body
    const create = page.locator('#operations-datasources-createDatasource')
    await create.locator('.opblock-summary').click()
    await expect
      .poll(() => create.locator('.opblock-description-wrapper').first().textContent())
      .toMatch(/tests the connection/)
    await expect.poll(() => create.locator('.opblock-body').textContent()).toMatch(/"datasourceType": "postgres"/)
    await expect.poll(() => create.locator('.opblock-body').textContent()).toMatch(/DATASOURCE_CONNECTION_ERROR/)
    await page.screenshot({ path: join(ARTIFACTS, 'api-reference-1440.png'), fullPage: false })
    // its failures, each with the codes it can answer
    const failures = create.locator('.responses-table .response[data-code="400"]')
    await failures.scrollIntoViewIfNeeded()
    expect(await failures.textContent()).toMatch(/INVALID_REQUEST_BODY.*DATASOURCE_CONNECTION_ERROR/s)
    await page.screenshot({ path: join(ARTIFACTS, 'api-reference-responses-1440.png'), fullPage: false })
    expect(errors).toEqual([])
    await page.close()
  })

  it('loads without a console error on a narrow screen', async () => {
    const { page, errors } = await openDocs(browser, server, 390)
    await expect.poll(() => page.locator('.opblock').count()).toBe(operations)
    await page.screenshot({ path: join(ARTIFACTS, 'api-reference-390.png'), fullPage: false })
    expect(errors).toEqual([])
    await page.close()
  })
})
