/// <reference lib="dom" />
import type { Page } from 'playwright-core'
import { expect } from 'vitest'

/**
 * The studio's steps as a person does them in Chromium, shared by the studio's browser tests:
 * each one drives only the studio's screens (no API call) and returns once the screen shows that
 * the step is done.
 */

export interface StudioAdmin {
  readonly firstName: string
  readonly company: string
  readonly email: string
  readonly password: string
}

/** Credentials of a `postgres` datasource (the generated form's fields). */
export interface PgCredentials {
  readonly host: string
  readonly port: number
  readonly username: string
  readonly password: string
  readonly database: string
  readonly schema: string
}

/** The first visit on a fresh server: the account form, then the (empty) datasources screen. */
export async function createAccount(page: Page, baseUrl: string, admin: StudioAdmin): Promise<void> {
  await page.goto(`${baseUrl}/studio`)
  await page.getByRole('heading', { name: 'Welcome to Strata' }).waitFor()
  await page.getByLabel('Your first name').fill(admin.firstName)
  await page.getByLabel('Company').fill(admin.company)
  await page.getByLabel('Email').fill(admin.email)
  await page.getByLabel('Password').fill(admin.password)
  await page.getByRole('button', { name: 'Create the account and sign in' }).click()
  await page.getByRole('heading', { name: 'Datasources' }).waitFor()
}

/** Signs in from the sign-in form (the account exists). */
export async function signIn(page: Page, baseUrl: string, admin: Pick<StudioAdmin, 'email' | 'password'>) {
  await page.goto(`${baseUrl}/studio`)
  await page.getByLabel('Email').fill(admin.email)
  await page.getByLabel('Password').fill(admin.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Datasources' }).waitFor()
}

/** Opens a screen from the navigation (the menu at 390 px is not handled: use a wide viewport). */
export async function openScreen(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name }).click()
}

/** Adds a PostgreSQL datasource from the generated form; returns once its tables are shown. */
export async function addPostgresDatasource(
  page: Page,
  name: string,
  c: PgCredentials,
  firstTable: string,
): Promise<void> {
  await page.getByRole('link', { name: 'Add a datasource' }).first().click()
  await page.getByRole('heading', { name: 'Add a datasource' }).waitFor()
  await expect.poll(() => page.getByLabel('Type').inputValue()).toBe('postgres')
  await page.getByLabel('Host', { exact: true }).waitFor()
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Host', { exact: true }).fill(c.host)
  await page.getByLabel('Port', { exact: true }).fill(String(c.port))
  await page.getByLabel('Username', { exact: true }).fill(c.username)
  await page.getByLabel('Password', { exact: true }).fill(c.password)
  await page.getByLabel('Database', { exact: true }).fill(c.database)
  await page.getByLabel('Schema', { exact: true }).fill(c.schema)
  await page.getByRole('button', { name: 'Test connection and save' }).click()
  await page.getByRole('heading', { name }).waitFor({ timeout: 20_000 })
  await page.getByRole('heading', { name: `${c.schema}.${firstTable}` }).waitFor()
}

/** Syncs the datasource shown; returns the announced result (`Synced <name> in … s: N tables`). */
export async function syncTables(page: Page, name: string): Promise<string> {
  await page.getByRole('button', { name: 'Sync tables' }).click()
  const done = new RegExp(`Synced ${name} in \\d+\\.\\d s: \\d+ tables?`)
  // a sync reads the warehouse's schema: seconds on a busy machine, not the poll's default second
  await expect
    .poll(() => page.getByRole('status').allTextContents(), { timeout: 20_000 })
    .toContainEqual(expect.stringMatching(done))
  return (await page.getByRole('status').allTextContents()).find((t) => done.test(t)) ?? ''
}

/** Creates a datamart of these tables (`schema.table`), checking the tenant column proposed for each. */
export async function createDatamart(
  page: Page,
  name: string,
  tables: readonly { readonly table: string; readonly tenantColumn: string }[],
): Promise<void> {
  await openScreen(page, 'Datamarts')
  await page.getByRole('link', { name: 'Create a datamart' }).first().click()
  await page.getByRole('heading', { name: 'Create a datamart' }).waitFor()
  for (const t of tables) {
    await page.getByLabel(t.table).check()
    const set = page.getByRole('group', { name: t.table })
    if ((await set.getByLabel('Tenant column').inputValue()) !== t.tenantColumn)
      await set.getByLabel('Tenant column').selectOption(t.tenantColumn)
  }
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByRole('button', { name: 'Create the datamart' }).click()
  await page.getByRole('heading', { name: 'Datamarts' }).waitFor()
  // the list names each datamart by a link that opens its edit form
  await page.getByRole('link', { name: `Edit datamart ${name}`, exact: true }).waitFor()
}

/** Creates a workspace (on the first datamart, which the form picks). */
export async function createWorkspace(page: Page, name: string): Promise<void> {
  await openScreen(page, 'Workspaces')
  await page.getByRole('heading', { name: 'Workspaces' }).waitFor()
  // the form is there before the datamarts are loaded: wait for its choice
  await expect.poll(() => page.getByLabel('Datamart').locator('option').count()).toBeGreaterThan(0)
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByRole('button', { name: 'Create the workspace' }).click()
  await page.getByRole('cell', { name, exact: true }).waitFor()
}

/**
 * Creates a data app; returns its key, read from the screen that shows it once. The key stays on
 * screen until `dismissKey`.
 */
export async function createDataApp(page: Page, name: string): Promise<string> {
  await openScreen(page, 'Data apps')
  await page.getByRole('heading', { name: 'Data apps' }).waitFor()
  // the list loaded (its answer must not land after the creation's)
  await page.getByText('No data app yet').or(page.getByRole('table')).first().waitFor()
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByRole('button', { name: 'Create the data app' }).click()
  const key = (await page.getByTestId('new-key').textContent()) ?? ''
  expect(key).toMatch(/^sk_/)
  return key
}

/** "I have saved it": the key leaves the screen. */
export async function dismissKey(page: Page, key: string): Promise<void> {
  await page.getByRole('button', { name: 'I have saved it' }).click()
  expect(await page.getByTestId('new-key').count()).toBe(0)
  expect(await page.content()).not.toContain(key)
}

/** Creates a dashboard from its name in the workspace shown; returns on its (empty) editor. */
export async function createDashboard(page: Page, name: string): Promise<void> {
  await openScreen(page, 'Dashboards')
  await page.getByText('No dashboard yet').waitFor()
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByRole('button', { name: 'Create the dashboard' }).click()
  await page.getByRole('heading', { level: 1, name }).waitFor()
}

/** In the dashboard editor: the tenant whose rows the builder shows while building. */
export async function buildAsTenant(page: Page, tenant: string): Promise<void> {
  await page.getByLabel('Tenant (clientId)').fill(tenant)
  await page.getByRole('button', { name: 'Show this tenant' }).click()
  await page.locator('strata-dashboard [part~="new-metric-button"]').waitFor({ timeout: 30_000 })
}

export interface BuiltMetric {
  /** The metric's name (its card's title). */
  readonly name: string
  /** The table, `schema.table`. */
  readonly table: string
  readonly measures: readonly string[]
  readonly dimensions?: readonly string[]
  /** The chart picked in the builder (its default otherwise: a single value, or bars with a dimension). */
  readonly chart?: 'line' | 'table' | 'bar' | 'single-value'
  /** The time grain of the (first) dimension, when it is a date. */
  readonly timeGrain?: 'day' | 'week' | 'month' | 'quarter' | 'year'
}

/**
 * Builds one metric in the element's builder, in the company's mode: fields into measures and
 * dimensions, a grain, a chart, a name; saves (a PUT of the dashboard) and waits for its card.
 */
export async function buildMetric(page: Page, m: BuiltMetric): Promise<void> {
  const el = (selector: string) => page.locator(`strata-dashboard ${selector}`)
  await el('[part~="new-metric-button"]').click()
  await el('#bd-table').waitFor()
  await el('#bd-table').selectOption(m.table)
  for (const [fields, target] of [
    [m.measures, 'measures'],
    [m.dimensions ?? [], 'dimensions'],
  ] as const) {
    for (const field of fields) {
      await el(`#bd-field-${field}`).click()
      await el(`[role="menu"] [data-target="${target}"]`).click()
    }
  }
  await expect.poll(() => el('[data-zone="measures"] .bd-item').count()).toBe(m.measures.length)
  if (m.timeGrain) await el('[data-zone="dimensions"] select[aria-label^="Time grain of"]').selectOption(m.timeGrain)
  if (m.chart) await el(`#bd-chart-${m.chart}`).check()
  await el('#bd-name').fill(m.name)
  const saved = page.waitForResponse(
    (r) => r.url().includes('/api/v2/data-app/dashboard') && r.request().method() === 'PUT',
  )
  await el('#bd-save').click()
  expect((await saved).status()).toBe(200)
  await el(`[part~="card-title"]:text-is("${m.name}")`).waitFor()
}

/** Opens the preview and shows the dashboard as `tenant`; returns the preview's element selector. */
export async function previewAs(page: Page, tenant: string): Promise<string> {
  if ((await page.locator('#pv-tenant').count()) === 0)
    await page.getByRole('button', { name: 'Preview as a tenant' }).click()
  await page.locator('#pv-tenant').fill(tenant)
  await page.getByRole('button', { name: 'Preview', exact: true }).click()
  const selector = `strata-dashboard[aria-label="Preview as ${tenant}"]`
  await page.locator(selector).waitFor()
  return selector
}

/**
 * The numbers each card of a `<strata-dashboard>` shows, read from the page as a reader gets
 * them: a single value's full text, a table's cells, a chart's data table (the one screen
 * readers read). Keyed by card title; each entry is the card's rows, cells as text.
 * Waits until every card has its data.
 */
export async function cardRows(page: Page, selector: string, titles: readonly string[]) {
  let rows: Record<string, string[][]> = {}
  await expect
    .poll(
      async () => {
        rows = await page.evaluate(
          ([sel, names]) => {
            const out: Record<string, string[][]> = {}
            const root = document.querySelector(sel)?.shadowRoot
            for (const card of root?.querySelectorAll<HTMLElement>('.card') ?? []) {
              const title = card.querySelector('[part~="card-title"]')?.textContent?.trim() ?? ''
              if (!names.includes(title)) continue
              const value = card.querySelector<HTMLElement>('[part~="value"]')
              if (value) {
                out[title] = [[value.getAttribute('title') ?? value.textContent ?? '']]
                continue
              }
              const body = card.querySelector('table tbody')
              if (!body) continue
              out[title] = [...body.querySelectorAll('tr')].map((tr) =>
                [...tr.querySelectorAll('td, th')].map((td) => (td.textContent ?? '').trim()),
              )
            }
            return out
          },
          [selector, titles] as const,
        )
        return Object.keys(rows).sort()
      },
      { timeout: 30_000 },
    )
    .toEqual([...titles].sort())
  return rows
}

/** A number as a card writes it ("12,345.50", "€1,234"): its digits, sign and decimal point. */
export function shownNumber(text: string): number {
  return Number(text.replace(/[^0-9.-]/g, ''))
}

/** Creates an embed of the dashboard shown in the form's default, with these flags checked. */
export async function createEmbed(page: Page, name: string, flags: readonly string[]): Promise<string> {
  await openScreen(page, 'Embeds')
  await page.getByRole('link', { name: 'Create embed' }).click()
  await page.getByRole('heading', { name: 'Create an embed' }).waitFor()
  await page.getByLabel('Name', { exact: true }).fill(name)
  for (const flag of flags) await page.getByLabel(flag).check()
  await page.getByRole('button', { name: 'Create the embed' }).click()
  await page.getByRole('heading', { name }).waitFor()
  const embedId = /emb_[0-9a-f]+/.exec((await page.locator('.lead code').textContent()) ?? '')?.[0] ?? ''
  expect(embedId).toMatch(/^emb_/)
  return embedId
}

/** Copies a snippet with its button (the page's context needs clipboard permissions); returns what was copied. */
export async function copySnippet(page: Page, id: 'html' | 'react' | 'node', title: string): Promise<string> {
  await page.getByRole('button', { name: `Copy the ${title} snippet` }).click()
  await expect
    .poll(() => page.getByRole('status').allTextContents())
    .toContainEqual(expect.stringContaining(`The ${title} snippet is copied`))
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toBe(await page.locator(`pre[data-snippet="${id}"]`).textContent())
  return copied
}

/** From an embed's screen: its data app's whitelist, then `origin` added to it. */
export async function allowOrigin(page: Page, dataApp: string, origin: string): Promise<void> {
  await page.getByRole('link', { name: 'whitelist' }).click()
  await page.getByRole('heading', { name: dataApp }).waitFor()
  await page.getByRole('textbox', { name: 'Origin' }).fill(origin)
  await page.getByRole('button', { name: 'Add the origin' }).click()
  await page.getByRole('listitem').filter({ hasText: origin }).waitFor()
}
