/// <reference lib="dom" />
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_EMBED, dashboardReady, useBrowserSuite } from '../helpers/browser.js'
import { ARTIFACTS, hasChromium } from '../helpers/chromium.js'
import { startSmtp } from '../helpers/smtp.js'

/**
 * The web component's email report controls (docs/web-component.md#scheduled-email-reports) in Chromium against the real
 * server and a real SMTP server on loopback (helpers/smtp.ts): no control without the
 * permission or without SMTP; a weekly report scheduled through the dialog shows in the list
 * and in GET /reports with the body the dialog promised; Send now delivers a mail; Delete
 * asks, then removes it; a bad address and the server's rate limit are shown without losing
 * what was typed; and the whole dialog works from the keyboard.
 */

const smtp = await startSmtp()
afterAll(() => smtp.close())

interface Listed {
  reportId: string
  name: string
  metricIds: string[] | null
  format: string
  schedule: Record<string, unknown>
  recipients: string[]
  dashboardFilter: Record<string, unknown> | null
  timezone: string
  status: { lastSentAt: string | null }
}

/** The focused element (through shadow roots): its id, its part and its text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let el = document.activeElement
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
    return { id: el?.id ?? '', part: el?.getAttribute('part') ?? '', text: el?.textContent?.trim() ?? '' }
  })

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `reports-${name}.png`) })

describe.skipIf(!hasChromium)('email report controls in Chromium', () => {
  const b = useBrowserSuite({
    env: {
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'Strata Reports <reports@example.com>',
      // no scheduled pass during the test: only Send now sends
      REPORT_POLL_INTERVAL_MS: '3600000',
      // deliveries per client: acme's two sends to two recipients fit, globex's third is refused
      EMAIL_RATE_LIMIT: '4',
    },
  })
  beforeAll(() => b.allowOnDemoEmbed({ isAllowEmailReports: true }), 60_000)

  const part = (page: Page, name: string) => page.locator(`#d [part~="${name}"]`)
  const dialog = (page: Page) => page.locator('#d dialog[part~="report-dialog"]')
  const isOpen = (page: Page) => dialog(page).evaluate((d) => (d as HTMLDialogElement).open)
  const mint = (clientId: string) =>
    b.mint(clientId, {}, { timezone: 'Europe/Paris', reportRecipients: ['@example.com'] })
  const list = async (token: string): Promise<Listed[]> => {
    const res = await fetch(`${b.server.url}/api/v2/embed/runtime/${DEMO_EMBED}/reports`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: Listed[] }).data
  }
  const load = async (token: string) => {
    const res = await fetch(`${b.server.url}/api/v2/embed/runtime/${DEMO_EMBED}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    return (await res.json()) as { permissions: { emailReports: boolean }; reports: { available: boolean } }
  }

  it('shows no report control when the embed does not allow email reports', async () => {
    await b.allowOnDemoEmbed({ isAllowEmailReports: false })
    try {
      const token = await mint('acme')
      expect((await load(token)).reports).toEqual({ available: false, recipients: [] })
      const page = await b.openDashboard(token)
      // the self-serve chunk drew its other controls (this token may build metrics): none for reports
      await part(page, 'new-metric-button').waitFor()
      expect(await part(page, 'reports-button').count()).toBe(0)
      await page.close()
    } finally {
      await b.allowOnDemoEmbed({ isAllowEmailReports: true })
    }
  }, 120_000)

  it('schedules a weekly report through the dialog: in the list and in GET /reports as chosen', async () => {
    const token = await mint('acme')
    expect((await load(token)).reports).toEqual({ available: true, recipients: ['@example.com'] })
    const page = await b.openDashboard(token, { viewport: { width: 1280, height: 900 } })
    // a filter the end user chose goes with the report
    await page.evaluate(() =>
      (document.getElementById('d') as unknown as { setFilter(n: string, v: unknown): void }).setFilter('country', [
        'France',
      ]),
    )
    await dashboardReady(page)

    await part(page, 'reports-button').click()
    await part(page, 'reports-empty').waitFor()
    expect(await part(page, 'reports-empty').textContent()).toContain('No reports yet')
    await shot(page, 'list-empty')
    await part(page, 'schedule-report-button').click()
    await expect.poll(() => isOpen(page)).toBe(true)
    expect(await focused(page)).toMatchObject({ id: 'rp-name' })
    await shot(page, 'dialog-empty')

    const d = dialog(page)
    await d.locator('#rp-name').fill('Weekly France revenue')
    await d.locator('#rp-scope-metrics').check()
    await d.locator('input[data-metric-id="revenue"]').check()
    await d.locator('input[data-metric-id="orders_by_channel"]').check()
    await d.locator('#rp-format-csv').check()
    await d.locator('#rp-frequency').selectOption('weekly')
    await d.locator('#rp-day-of-week').selectOption('3')
    await d.locator('#rp-time').fill('08:30')
    await d.locator('#rp-recipients').fill('ann@example.com, Ops@Example.com')
    expect(await d.locator('[part~="report-when"]').textContent()).toContain('Every Wednesday at 08:30, Europe/Paris')
    const filters = await d.locator('[part~="report-filters"]').textContent()
    expect(filters).toContain("Sent with the dashboard's current filters")
    expect(filters).toContain('Country: France')
    expect(filters).toContain('Order date: Last 12 months (default)')
    await shot(page, 'dialog-filled')
    await d.locator('[part~="report-save"]').click()
    await expect.poll(() => isOpen(page)).toBe(false)

    // the list opens again with the new report
    const item = part(page, 'report-item').filter({ hasText: 'Weekly France revenue' })
    await item.waitFor()
    expect(await item.locator('[part~="report-schedule"]').textContent()).toBe('Every Wednesday at 08:30, Europe/Paris')
    expect(await item.locator('[part~="report-format"]').textContent()).toBe('CSV')
    expect(await item.locator('[part~="report-what"]').textContent()).toBe('2 metrics')
    expect(await item.locator('[part~="report-recipients"]').textContent()).toContain(
      'ann@example.com, ops@example.com',
    )
    expect(await item.locator('[part~="report-status"]').textContent()).toMatch(/Not sent yet · next Wed/)

    const [report, ...rest] = await list(token)
    expect(rest).toEqual([])
    expect(report).toMatchObject({
      name: 'Weekly France revenue',
      metricIds: ['revenue', 'orders_by_channel'],
      format: 'csv',
      schedule: { frequency: 'weekly', time: '08:30', dayOfWeek: 3 },
      recipients: ['ann@example.com', 'ops@example.com'],
      timezone: 'Europe/Paris',
    })
    expect(report?.dashboardFilter).toMatchObject({ country: ['France'] })
    await page.close()
  }, 120_000)

  it('Send now delivers the report to the SMTP server, then the list says so', async () => {
    const token = await mint('acme')
    const page = await b.openDashboard(token, { viewport: { width: 1280, height: 900 } })
    const before = smtp.received.length
    await part(page, 'reports-button').click()
    const item = part(page, 'report-item').filter({ hasText: 'Weekly France revenue' })
    await item.locator('[part~="report-send"]').click()
    await expect.poll(() => item.locator('[part~="report-send-status"]').textContent()).toMatch(/Sending…|Sent/)
    await expect
      .poll(() => item.locator('[part~="report-send-status"]').textContent(), { timeout: 30_000 })
      .toBe('Sent to 2 recipients')
    const [mail] = (await smtp.waitFor(before + 1)).slice(before)
    expect(mail?.rcptTo.sort()).toEqual(['ann@example.com', 'ops@example.com'])
    expect(mail?.mail.subject).toBe('Weekly France revenue — Sales overview')
    const names = (mail?.mail.attachments ?? []).map((a) => a.filename).sort()
    expect(names).toEqual(['orders_by_channel.csv', 'revenue.csv'])
    expect(mail?.mail.attachments[0]?.content.toString('utf8').split('\r\n')[0]).toBeTruthy()
    await expect.poll(() => item.locator('[part~="report-status"]').textContent()).toMatch(/^Last sent /)
    expect((await list(token))[0]?.status.lastSentAt).not.toBeNull()
    await shot(page, 'list-sent')

    // the SMTP server refuses the next one (502 EMAIL_SEND_FAILED): the row says so
    smtp.refuse = true
    try {
      await item.locator('[part~="report-send"]').click()
      await expect
        .poll(() => item.locator('[part~="report-send-status"]').textContent(), { timeout: 30_000 })
        .toBe('Not sent')
      expect(await item.locator('[part~="report-send-error"]').textContent()).toMatch(
        /The SMTP server did not accept the report: .*451/,
      )
      expect(smtp.received.length).toBe(before + 1)
      await shot(page, 'list-send-failed')
    } finally {
      smtp.refuse = false
    }
    await page.setViewportSize({ width: 390, height: 844 })
    await part(page, 'reports-button').click()
    await part(page, 'reports-button').click()
    await item.waitFor()
    await shot(page, 'list-390')
    await page.close()
  }, 120_000)

  it('shows a bad address inline and keeps what was typed; the rate limit on Send now is explained', async () => {
    const token = await mint('globex')
    const page = await b.openDashboard(token, { viewport: { width: 1280, height: 900 } })
    await part(page, 'reports-button').click()
    await part(page, 'schedule-report-button').click()
    const d = dialog(page)
    await d.locator('#rp-name').fill('Daily orders')
    await d.locator('#rp-frequency').selectOption('daily')
    await d.locator('#rp-recipients').fill('ann@example.com not-an-email')
    await d.locator('#rp-recipients').press('Enter')
    const error = d.locator('#rp-recipients-error')
    await error.waitFor()
    expect(await error.textContent()).toContain('“not-an-email” is not a valid email address.')
    expect(await d.locator('#rp-recipients').getAttribute('aria-invalid')).toBe('true')
    expect(await d.locator('#rp-recipients').getAttribute('aria-describedby')).toBe('rp-recipients-error')
    expect(await focused(page)).toMatchObject({ id: 'rp-recipients' })
    expect(await d.locator('#rp-name').inputValue()).toBe('Daily orders')
    expect(await isOpen(page)).toBe(true)
    expect(await list(token)).toEqual([])
    await shot(page, 'dialog-errors')
    // an empty name too, then both fixed
    await d.locator('#rp-name').fill('')
    await d.locator('[part~="report-save"]').click()
    expect(await d.locator('#rp-name-error').textContent()).toContain('Give the report a name')
    expect(await focused(page)).toMatchObject({ id: 'rp-name' })
    await d.locator('#rp-name').fill('Daily orders')
    await d.locator('#rp-recipients').fill('ann@example.com bob@example.com')
    await d.locator('[part~="report-save"]').click()
    await expect.poll(() => isOpen(page)).toBe(false)
    expect((await list(token)).map((r) => r.schedule)).toEqual([{ frequency: 'daily', time: '09:00' }])

    // EMAIL_RATE_LIMIT=4 deliveries per client: two sends to two recipients, the third is refused
    // (429) and the row says why
    const item = part(page, 'report-item').filter({ hasText: 'Daily orders' })
    const status = item.locator('[part~="report-send-status"]')
    for (const expected of ['Sent to 2 recipients', 'Sent to 2 recipients']) {
      await item.locator('[part~="report-send"]').click()
      await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe(expected)
      await expect.poll(() => item.locator('[part~="report-send"]').isDisabled()).toBe(false)
      await page.evaluate(() => new Promise((r) => setTimeout(r, 100)))
    }
    await item.locator('[part~="report-send"]').click()
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe('Not sent')
    expect(await item.locator('[part~="report-send-error"]').textContent()).toMatch(
      /^Too many emails were sent from this account just now\. Try again in \d+ seconds\.$/,
    )
    await shot(page, 'list-rate-limited')
    await page.close()
  }, 120_000)

  it("shows the server's refusal in the dialog, with everything typed kept", async () => {
    const token = await mint('umbrella')
    const page = await b.openDashboard(token, { viewport: { width: 1280, height: 900 } })
    await part(page, 'reports-button').click()
    await part(page, 'schedule-report-button').click()
    const d = dialog(page)
    await d.locator('#rp-name').fill('Refused report')
    await d.locator('#rp-format-png').check()
    await d.locator('#rp-recipients').fill('ann@example.com')
    // the company turns email reports off while the dialog is open: the server refuses (403)
    await b.allowOnDemoEmbed({ isAllowEmailReports: false })
    try {
      await d.locator('[part~="report-save"]').click()
      const error = d.locator('[part~="report-error"]')
      await expect.poll(() => error.textContent()).toContain('You are no longer allowed to schedule reports')
      expect(await error.textContent()).toContain('INSUFFICIENT_PERMISSIONS · 403')
      expect(await isOpen(page)).toBe(true)
      expect(await d.locator('#rp-name').inputValue()).toBe('Refused report')
      expect(await d.locator('#rp-format-png').isChecked()).toBe(true)
      expect(await d.locator('#rp-recipients').inputValue()).toBe('ann@example.com')
      expect(await focused(page)).toMatchObject({ id: 'rp-save' })
      await shot(page, 'dialog-server-error')
    } finally {
      await b.allowOnDemoEmbed({ isAllowEmailReports: true })
    }
    // allowed again: the same dialog saves what was typed
    await d.locator('[part~="report-save"]').click()
    await expect.poll(() => isOpen(page)).toBe(false)
    expect((await list(token)).map((r) => [r.name, r.format, r.recipients])).toEqual([
      ['Refused report', 'png', ['ann@example.com']],
    ])
    await page.close()
  }, 120_000)

  it('Delete asks in place; Keep keeps it, Delete removes it (list and GET /reports)', async () => {
    const token = await mint('globex')
    const page = await b.openDashboard(token, { viewport: { width: 1280, height: 900 } })
    await part(page, 'reports-button').click()
    const item = part(page, 'report-item').filter({ hasText: 'Daily orders' })
    await item.locator('[part~="report-delete"]').click()
    await expect.poll(() => focused(page)).toMatchObject({ text: 'Keep' })
    expect(await item.textContent()).toContain('Delete “Daily orders”?')
    await page.keyboard.press('Escape')
    await expect.poll(() => focused(page)).toMatchObject({ part: 'report-delete' })
    expect(await list(token)).toHaveLength(1)
    await item.locator('[part~="report-delete"]').click()
    await item.locator('[part~="report-delete-confirm"]').click()
    await part(page, 'reports-empty').waitFor()
    expect(await part(page, 'report-item').count()).toBe(0)
    expect(await focused(page)).toMatchObject({ part: 'schedule-report-button' })
    expect(await list(token)).toEqual([])
    await page.close()
  }, 120_000)

  it('works from the keyboard alone: Enter opens, Tab stays inside, Escape closes, Enter schedules', async () => {
    const token = await mint('initech')
    const page = await b.openDashboard(token, { viewport: { width: 1280, height: 900 } })
    await part(page, 'reports-button').focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => focused(page)).toMatchObject({ part: 'schedule-report-button' })
    await page.keyboard.press('Enter')
    await expect.poll(() => isOpen(page)).toBe(true)
    expect(await focused(page)).toMatchObject({ id: 'rp-name' })
    // Escape closes, focus back on the toolbar button
    await page.keyboard.press('Escape')
    await expect.poll(() => isOpen(page)).toBe(false)
    expect(await focused(page)).toMatchObject({ part: 'reports-button' })

    await page.keyboard.press('Enter')
    await expect.poll(() => focused(page)).toMatchObject({ part: 'schedule-report-button' })
    await page.keyboard.press('Enter')
    await expect.poll(() => focused(page)).toMatchObject({ id: 'rp-name' })
    await page.keyboard.type('Monthly summary')
    // Tab order: scope, format, repeat, day, time (its own segments), recipients, Cancel, Schedule, then Close again
    const label = () =>
      page.evaluate(() => {
        let el = document.activeElement
        while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
        return el?.id || el?.getAttribute('aria-label') || el?.textContent?.trim() || ''
      })
    const order: string[] = []
    for (let i = 0; i < 16 && order.at(-1) !== 'Close'; i++) {
      await page.keyboard.press('Tab')
      const now = await label()
      if (order.at(-1) !== now) order.push(now)
    }
    expect(order).toEqual([
      'rp-scope-dashboard',
      'rp-format-pdf',
      'rp-frequency',
      'rp-day-of-week',
      'rp-time',
      'rp-recipients',
      'Cancel',
      'rp-save',
      'Close',
    ])
    // a visible focus ring on the focused control
    expect(
      await page.evaluate(() => {
        let el = document.activeElement
        while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
        return el ? getComputedStyle(el).outlineStyle : ''
      }),
    ).toBe('solid')
    // Shift+Tab wraps back to the last control
    await page.keyboard.press('Shift+Tab')
    expect(await label()).toBe('rp-save')
    /** Tab (or Shift+Tab) until `id` has focus. */
    const tabTo = async (id: string, back = false) => {
      for (let i = 0; i < 16 && (await label()) !== id; i++) await page.keyboard.press(back ? 'Shift+Tab' : 'Tab')
      expect(await label()).toBe(id)
    }
    // the format: arrows pick PNG; repeat: arrows pick monthly
    await tabTo('rp-format-pdf', true)
    await page.keyboard.press('ArrowLeft')
    expect(await label()).toBe('rp-format-png')
    await page.keyboard.press('Tab')
    expect(await label()).toBe('rp-frequency')
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => dialog(page).locator('#rp-frequency').inputValue()).toBe('monthly')
    await page.keyboard.press('Tab')
    expect(await label()).toBe('rp-day-of-month')
    await tabTo('rp-recipients')
    await page.keyboard.type('team@example.com')
    await page.keyboard.press('Enter')
    await expect.poll(() => isOpen(page)).toBe(false)
    const [report] = await list(token)
    expect(report).toMatchObject({
      name: 'Monthly summary',
      metricIds: null,
      format: 'png',
      schedule: { frequency: 'monthly', time: '09:00', dayOfMonth: 1 },
      recipients: ['team@example.com'],
    })
    await page.close()
  }, 120_000)

  it('at 390 px the dialog fills the screen', async () => {
    const token = await mint('acme')
    const page = await b.openDashboard(token, { viewport: { width: 390, height: 844 } })
    await part(page, 'reports-button').click()
    await part(page, 'schedule-report-button').click()
    await expect.poll(() => isOpen(page)).toBe(true)
    const box = await dialog(page).boundingBox()
    expect(box).toMatchObject({ x: 0, y: 0, width: 390, height: 844 })
    // nothing overflows sideways
    expect(await dialog(page).evaluate((d) => d.scrollWidth <= d.clientWidth)).toBe(true)
    await shot(page, 'dialog-390')
    await page.close()
  }, 120_000)
})

describe.skipIf(!hasChromium)('email report controls without SMTP in Chromium', () => {
  const b = useBrowserSuite()
  beforeAll(() => b.allowOnDemoEmbed({ isAllowEmailReports: true }), 60_000)

  it('shows no report control though the embed allows email reports', async () => {
    const token = await b.mint('acme', {})
    const res = await fetch(`${b.server.url}/api/v2/embed/runtime/${DEMO_EMBED}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    const loaded = (await res.json()) as { permissions: { emailReports: boolean }; reports: unknown }
    expect(loaded.permissions.emailReports).toBe(true)
    expect(loaded.reports).toEqual({ available: false, recipients: [] })
    const page = await b.openDashboard(token)
    // the self-serve chunk drew its other controls (this token may build metrics): none for reports
    await page.locator('#d [part~="new-metric-button"]').waitFor()
    expect(await page.locator('#d [part~="reports-button"]').count()).toBe(0)
    await page.close()
  }, 120_000)
})
