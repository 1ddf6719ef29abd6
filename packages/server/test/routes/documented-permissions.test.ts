/**
 * The permission table of docs/guest-tokens.md is the rule integrators read (issue 24, item 12:
 * the docs once said layout editing needed the token flag and that archive, manage and views did
 * nothing, while an omitted flag inherits the embed's setting and all of them work). This test
 * reads that table, not a copy of it: for each row it makes embeds with the setting on, off and
 * (where the setting is optional) omitted, mints tokens with the flag on, off and omitted, and
 * checks that the load's effective permission and one action's 403 follow the row's rule.
 */
import { describe, expect, it } from 'vitest'
import { REQUIRED_ON_CREATE } from '../../src/schemas/embeds.js'
import { PERMISSIONS } from '../../src/schemas/guest-tokens.js'
import { ACCESS } from '../helpers/analytics.js'
import { readRepoFile } from '../helpers/docs.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

type Flag = boolean | undefined
interface Row {
  readonly permission: string
  readonly embedField: string | undefined
  readonly tokenField: string | undefined
  readonly rule: string
  readonly allows: (embed: Flag, token: Flag) => boolean
  readonly refusal: { status: number; code: string } | undefined
}

const cells = (line: string) =>
  line
    .slice(1, -1)
    .split('|')
    .map((c) => c.trim())
const ticked = (cell: string | undefined): string | undefined =>
  cell === '—' ? undefined : /^`([^`]+)`$/.exec(cell ?? '')?.[1]

/** "embed `true` AND token not `false`" → a predicate over the embed's setting and the token's flag. */
function parseRule(rule: string): Row['allows'] {
  const terms = rule.split(' AND ').map((term) => {
    const m = /^(embed|token) (not )?`(true|false)`$/.exec(term.trim())
    if (!m) throw new Error(`docs/guest-tokens.md: a permission rule the test cannot read: "${rule}"`)
    const [, side, not, value] = m
    const want = value === 'true'
    return (embed: Flag, token: Flag) => {
      const v = side === 'embed' ? embed : token
      return not ? v !== want : v === want
    }
  })
  return (embed, token) => terms.every((t) => t(embed, token))
}

/** The table under "## `permissions`" of docs/guest-tokens.md. */
function documentedRows(): Row[] {
  const page = readRepoFile('docs/guest-tokens.md')
  const section = page.slice(page.indexOf('## `permissions`'), page.indexOf('## Lifetime and revocation'))
  const lines = section.split('\n').filter((l) => l.startsWith('|'))
  const header = cells(lines[0] ?? '')
  expect(header).toEqual([
    'Load `permissions.`',
    'Embed `accessSettings`',
    'Token field',
    'Rule',
    'Refused with',
    'Used by',
  ])
  return lines.slice(2).map((line) => {
    const [permission, embed, token, rule = '', refused] = cells(line)
    const refusal = /^(\d{3}) `([A-Z_]+)`$/.exec(refused ?? '')
    return {
      permission: ticked(permission) ?? '',
      embedField: ticked(embed),
      tokenField: ticked(token),
      rule,
      allows: parseRule(rule),
      refusal: refusal ? { status: Number(refusal[1]), code: refusal[2] as string } : undefined,
    }
  })
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

describe.skipIf(!hasPg)('the permission table of docs/guest-tokens.md is what the server does', () => {
  const { wh, a } = useAnalytics('sqlite', {
    app: 'suite',
    // reports answer 400 EMAIL_NOT_CONFIGURED before their permission without these
    env: { SMTP_URL: 'smtp://127.0.0.1:9', EMAIL_FROM: 'reports@example.com' },
  })
  const rows = documentedRows()

  /** One action that needs each permission (the route the "Used by" column names first, or one of them). */
  const probes: Record<string, [Method, string, () => object | undefined]> = {
    download: ['GET', '/metrics/revenue/download', () => undefined],
    underlyingData: ['POST', '/underlying', () => ({ metricId: 'revenue' })],
    endUserDashboardFilter: ['POST', '/query', () => ({ metricId: 'revenue', dashboardFilter: { country: ['FR'] } })],
    metricCreation: ['GET', '/model', () => undefined],
    metricUpdate: [
      'PUT',
      '/metrics/revenue',
      () => ({
        metric: {
          name: 'Revenue (count)',
          chart: { type: 'single-value', y: ['revenue'] },
          query: { from: `${wh.schema}.orders`, measures: [{ name: 'revenue', aggregate: 'count' }] },
        },
      }),
    ],
    metricDeletion: ['DELETE', '/metrics/orders_by_month', () => undefined],
    manageMetrics: ['POST', '/metrics/revenue/publish', () => undefined],
    archiveMetrics: ['POST', '/metrics/revenue_by_country/archive', () => undefined],
    customizeLayout: ['DELETE', '/layout', () => undefined],
    dashboardViews: ['GET', '/views', () => undefined],
    emailReports: ['GET', '/reports', () => undefined],
    aiPilot: ['GET', '/ai/suggestions', () => undefined],
  }

  it('the table is there and names every effective permission of the load', async () => {
    expect(rows.length).toBeGreaterThan(10)
    const token = (
      await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, { dataAppName: 'salesapp', clientId: 'acme' })
    ).token
    const load = await a.ok('GET', `/api/v2/embed/runtime/${a.embedId}`, token)
    const booleans = Object.keys(load.permissions).filter((k) => typeof load.permissions[k] === 'boolean')
    expect(rows.map((r) => r.permission).sort()).toEqual(booleans.sort())
    for (const row of rows) if (row.refusal) expect(probes[row.permission], row.permission).toBeDefined()
    // every token flag a token may carry is documented in some row
    const flags = new Set(rows.map((r) => r.tokenField))
    for (const flag of PERMISSIONS) expect(flags.has(flag), flag).toBe(true)
  })

  it.each(rows.map((r) => [r.permission, r] as const))('%s follows its documented rule', async (_name, row) => {
    // the AI routes answer past the AI pilot permission only when the workspace turns a feature on
    await a.ok('PUT', '/api/v2/workspace', a.serviceToken, {
      name: 'main',
      connectionType: 'DATAMART',
      datamartName: 'sales',
      isEnableMetricSuggestions: true,
    })
    const required = new Set<string>(REQUIRED_ON_CREATE)
    const embedValues: Flag[] = row.embedField
      ? required.has(row.embedField)
        ? [true, false]
        : [true, false, undefined]
      : [undefined]
    const tokenValues: Flag[] = row.tokenField ? [true, false, undefined] : [undefined]
    let n = 0
    for (const embedValue of embedValues) {
      const accessSettings: Record<string, unknown> = { ...ACCESS }
      if (row.embedField) {
        if (embedValue === undefined) delete accessSettings[row.embedField]
        else accessSettings[row.embedField] = embedValue
      }
      const body = { dashboardId: 'sales-overview', embedType: 'dashboard', workspaceName: 'main', accessSettings }
      // the preferred path and the legacy one store the same settings
      const embedIds = [
        (await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, body)).id as string,
        ...(embedValue === true
          ? [(await a.ok('POST', '/api/v2/dataApp/embeds', a.dataAppKey, body)).id as string]
          : []),
      ]
      for (const embedId of embedIds) {
        for (const tokenValue of tokenValues) {
          // a tenant per case: what an allowed action changed never meets another case
          const clientId = `t${row.permission}${n++}`
          const mint: Record<string, unknown> = { dataAppName: 'salesapp', clientId }
          if (row.tokenField && tokenValue !== undefined) {
            const path = row.tokenField.split('.')
            if (path[0] === 'params') mint.params = nest(path.slice(1), tokenValue)
            else mint.permissions = { [row.tokenField]: tokenValue }
          }
          const token = (await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, mint)).token as string
          const expected = row.allows(embedValue, tokenValue)
          const what = `${row.permission}: embed ${row.embedField}=${embedValue}, token ${row.tokenField}=${tokenValue} (${row.rule})`
          const load = await a.ok('GET', `/api/v2/embed/runtime/${embedId}`, token)
          expect(load.permissions[row.permission], what).toBe(expected)
          const probe = probes[row.permission]
          if (!row.refusal || !probe) continue
          const [method, path, payload] = probe
          const res = await a.call(method, `/api/v2/embed/runtime/${embedId}${path}`, token, payload())
          const refused = res.statusCode === row.refusal.status && res.json().error?.code === row.refusal.code
          expect(refused, `${what}: ${method} ${path} answered ${res.statusCode} ${res.body.slice(0, 200)}`).toBe(
            !expected,
          )
        }
      }
    }
  })
})

function nest(path: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path
  return { [head as string]: rest.length ? nest(rest, value) : value }
}
