import { describe, expect, it } from 'vitest'
import { DATAMART, model, TABLES } from '../../../test/fixtures/query.js'
import type { GuestClaims } from '../../auth/principal.js'
import { buildModel } from '../../query/model.js'
import type { Dashboard } from '../dashboards/dashboards.js'
import type { Embed } from '../embeds/embeds.js'
import type { Source } from '../query/sources.js'
import { checkDefinition, definitionOf } from './definition.js'
import { inheritedRls } from './inherited-rls.js'
import type { EndUserMetric, TenantMetrics } from './metric-store.js'
import { overlay } from './overlay.js'
import { describeModel, visibleModel } from './visible-model.js'

const embed = (tableTenancySettings?: { name: string; clientColumn: string }[]) =>
  ({ accessSettings: tableTenancySettings ? { tableTenancySettings } : {} }) as Embed
const source = (m = model(), tenancySettings?: unknown) =>
  ({ model: m, datamart: undefined, datasource: { tenancySettings } }) as unknown as Source

describe('visibleModel', () => {
  it('leaves out hidden tables and columns and every tenant column', () => {
    const hidden = buildModel(TABLES, {
      ...DATAMART,
      tableList: DATAMART.tableList.map((t) =>
        t.name === 'audit'
          ? { ...t, isHide: true }
          : t.name === 'countries'
            ? { ...t, columns: [{ name: 'region', isHide: true }] }
            : t,
      ),
    })
    const visible = visibleModel(
      source(hidden, {
        tenancyLevel: 'TABLE',
        schemaName: 'public',
        tableName: 'tenants',
        tableClientNameColumn: 'name',
        tablePrimaryKeyColumn: 'id',
      }),
      embed([{ name: 'countries', clientColumn: 'code' }]),
    )
    const columns = (key: string) => [...(visible.tables.get(key)?.columns.keys() ?? [])]
    expect([...visible.tables.keys()]).toEqual([
      'public.orders',
      'public.customers',
      'public.countries',
      'public.tenants',
    ])
    expect(columns('public.orders')).not.toContain('client_id')
    expect(columns('public.customers')).not.toContain('client_id')
    expect(columns('public.countries')).toEqual(['name'])
    expect(columns('public.tenants')).toEqual([])
    expect(visible.tables.get('public.orders')?.clientColumn).toBeUndefined()
    expect(describeModel(visible).relationships).toHaveLength(2)
  })
})

describe('checkDefinition', () => {
  const visible = visibleModel(source(), embed())
  const definition = {
    name: 'By status',
    chart: { type: 'bar' as const, x: 'status', y: ['n'] },
    query: {
      from: 'orders',
      measures: [{ name: 'n', aggregate: 'count' as const }],
      dimensions: [{ name: 'status', column: 'status' }],
    },
  }
  it('answers the definition with canonical table paths', () => {
    expect(checkDefinition(definition, visible, 'u_x').definition.query.from).toBe('public.orders')
  })
  it.each([
    [{ ...definition, query: { ...definition.query, from: 'nope' } }, /^metric\.query\.from: no table "nope"/],
    [
      { ...definition, query: { ...definition.query, dimensions: [{ name: 'c', column: 'client_id' }] } },
      /^metric\.query\.dimensions\[0\]\.column: no column "client_id" in public\.orders/,
    ],
    [
      {
        ...definition,
        query: {
          ...definition.query,
          where: [{ column: 'status', operator: 'in' as const, values: Array(600).fill('x'.repeat(30)) }],
        },
      },
      /^metric: the definition is \d+ bytes as JSON; at most 16384$/,
    ],
  ])('refuses %#', (bad, message) => {
    expect(() => checkDefinition(bad, visible, 'u_x')).toThrow(message)
  })
  it('gives a company metric a definition only when it is structured and within the visible model', () => {
    const metric = { metricId: 'm', ...definition }
    expect(definitionOf(metric, model(), visible, false)).toMatchObject({ name: 'By status' })
    expect(
      definitionOf(
        { ...metric, query: { ...definition.query, dimensions: [{ name: 'c', column: 'client_id' }] } },
        model(),
        visible,
        false,
      ),
    ).toBeUndefined()
    expect(
      definitionOf({ metricId: 'm', name: 'S', chart: { type: 'table' }, sql: 'select 1' }, model(), visible, false),
    ).toBeUndefined()
  })
})

describe('overlay', () => {
  const company: Dashboard = {
    id: 'row',
    organizationId: 'o',
    workspaceId: 'w',
    dashboardId: 'd',
    name: 'D',
    origin: 'api',
    createdByClient: null,
    updatedAt: 't',
    document: {
      name: 'D',
      metrics: [
        {
          metricId: 'a',
          name: 'A',
          chart: { type: 'single-value' },
          query: { from: 'public.orders', measures: [{ name: 'n', aggregate: 'count' }] },
          rls: [{ variable: 'region', column: 'region', table: 'public.countries' }],
          comparison: { period: 'previous-period' },
        },
        {
          metricId: 'b',
          name: 'B',
          chart: { type: 'table' },
          query: { from: 'public.orders', dimensions: [{ name: 's', column: 'status' }] },
        },
        {
          metricId: 'c',
          name: 'C',
          chart: { type: 'table' },
          query: { from: 'public.orders', dimensions: [{ name: 's', column: 'status' }] },
        },
      ],
    },
  }
  const claims = {
    clientId: 'acme',
    params: { rlsSettings: [{ metricId: 'a', values: { region: 'EU' } }] },
  } as unknown as GuestClaims
  const at = { model: model(), dialect: 'postgres' } as const
  const row = (metricId: string, over: Partial<EndUserMetric> = {}): EndUserMetric => ({
    metricId,
    userIdentifier: '',
    definition: {
      name: `V ${metricId}`,
      chart: { type: 'table' },
      query: { from: 'public.orders', dimensions: [{ name: 's', column: 'status' }] },
    },
    visibility: 'shared',
    isPublished: true,
    archived: false,
    basedOnCompany: false,
    companyFingerprint: null,
    createdAt: '',
    ...over,
  })

  it('returns the company dashboard itself when the tenant has nothing', () => {
    const o = overlay(company, { metrics: [], states: [] }, claims)
    expect(o.dashboard).toBe(company)
    expect(o.origins.get('a')).toMatchObject({ origin: 'company', endUserDefined: false })
  })

  it('hides, archives, replaces by versions and appends, leaving the company document alone', () => {
    const before = JSON.stringify(company)
    const tenant: TenantMetrics = {
      metrics: [row('a', { basedOnCompany: true }), row('u_1'), row('u_2', { archived: true })],
      states: [
        { metricId: 'b', hidden: true, archived: false },
        { metricId: 'c', hidden: false, archived: true },
      ],
    }
    const o = overlay(company, tenant, claims)
    expect(o.dashboard.document.metrics.map((m) => [m.metricId, m.name])).toEqual([
      ['a', 'V a'],
      ['u_1', 'V u_1'],
    ])
    // a version keeps no RLS declaration of its own, and no comparison without a measure
    expect(o.dashboard.document.metrics[0]).not.toHaveProperty('rls')
    expect(o.dashboard.document.metrics[0]).not.toHaveProperty('comparison')
    expect(o.origins.get('a')).toMatchObject({ origin: 'company', endUserDefined: true })
    expect(o.origins.get('u_1')).toMatchObject({ origin: 'tenant', createdByUser: null })
    expect(o.archived).toEqual([
      { metricId: 'c', name: 'C' },
      { metricId: 'u_2', name: 'V u_2' },
    ])
    expect(JSON.stringify(company)).toBe(before)
  })

  it('carries the token RLS values of the company metrics to end users’ definitions', () => {
    expect(inheritedRls(claims, company.document.metrics, at)).toEqual([
      {
        table: 'public.countries',
        column: 'region',
        value: 'EU',
        source: 'rls',
        name: 'region',
        scope: 'dashboard',
        trusted: true,
      },
    ])
  })

  it('fails closed on a declared RLS column the token gives no value for', () => {
    const bare = { clientId: 'acme', params: {} } as unknown as GuestClaims
    const [unbound] = inheritedRls(bare, company.document.metrics, at)
    expect(unbound).toMatchObject({ table: 'public.countries', column: 'region', scope: 'dashboard' })
    expect(unbound?.refuse).toMatch(
      /a declares the RLS variable "region" on public.countries, and the token gives it no value/,
    )
    // a value for the same column from another metric's entry binds it
    const other = { ...company.document.metrics[0], metricId: 'a2' } as (typeof company.document.metrics)[number]
    const both = inheritedRls(claims, [...company.document.metrics, other], at)
    expect(both).toHaveLength(1)
    expect(both[0]).not.toHaveProperty('refuse')
  })

  describe('a company SQL metric’s RLS variables', () => {
    const sql = (rls?: { variable: string; column: string; table?: string }[]) =>
      ({
        metricId: 's',
        name: 'S',
        chart: { type: 'table' },
        sql: 'select o.status from public.orders o join public.customers c on c.id = o.customer_id where c.name in ({{who}})',
        ...(rls ? { rls } : {}),
      }) as (typeof company.document.metrics)[number]
    const token = (values: Record<string, unknown>) =>
      ({ clientId: 'acme', params: { rlsSettings: [{ metricId: 's', values }] } }) as unknown as GuestClaims
    const refusedOn = (filters: ReturnType<typeof inheritedRls>) =>
      filters.filter((f) => f.refuse !== undefined).map((f) => f.table)

    it('are placed on the column the rls entry declares: its table, else the one table the SQL reads that has it', () => {
      expect(inheritedRls(token({ who: ['x'] }), [sql([{ variable: 'who', column: 'name' }])], at)).toEqual([
        expect.objectContaining({ table: 'public.customers', column: 'name', value: ['x'], trusted: true }),
      ])
      const declared = sql([{ variable: 'who', column: 'region', table: 'public.countries' }])
      expect(inheritedRls(token({ who: 'EU' }), [declared], at)).toEqual([
        expect.objectContaining({ table: 'public.countries', column: 'region', value: 'EU' }),
      ])
      // declared, no value: refused where it is placed, as a structured metric's
      const [unbound] = inheritedRls(token({}), [sql([{ variable: 'who', column: 'name' }])], at)
      expect(unbound).toMatchObject({ table: 'public.customers', refuse: expect.stringMatching(/no value/) })
    })

    it('refuse end users’ metrics on every table the SQL reads when they cannot be placed, saying what to declare', () => {
      const what = /"rls": \[\{ "variable": "who", "table": "<schema\.table>", "column": "<column>" \}\]/
      // bound in the text with the token's value, declared nowhere
      const undeclared = inheritedRls(token({ who: ['x'] }), [sql()], at)
      expect(refusedOn(undeclared)).toEqual(['public.orders', 'public.customers'])
      expect(undeclared[0]?.refuse).toMatch(/binds the RLS variable "who" in its text, and declares no rls entry/)
      expect(undeclared[0]?.refuse).toMatch(what)
      // a column both tables have, or none
      const ambiguous = inheritedRls(token({ who: ['x'] }), [sql([{ variable: 'who', column: 'id' }])], at)
      expect(refusedOn(ambiguous)).toEqual(['public.orders', 'public.customers'])
      expect(ambiguous[0]?.refuse).toMatch(/several tables it reads have the column "id"/)
      const missing = inheritedRls(token({ who: ['x'] }), [sql([{ variable: 'who', column: 'region' }])], at)
      expect(missing[0]?.refuse).toMatch(/no table it reads has the column "region"/)
      // a value for a variable the text does not bind, undeclared, restricts nothing (the company metric refuses it)
      expect(inheritedRls(token({ other: 'x' }), [sql()], at)).toEqual([])
      // no SQL dialect to read it in: nothing of the end user's runs
      expect(() => inheritedRls(token({ who: ['x'] }), [sql()], { ...at, dialect: undefined })).toThrow(
        /RLS of the SQL metric s cannot be placed/,
      )
    })
  })
})
