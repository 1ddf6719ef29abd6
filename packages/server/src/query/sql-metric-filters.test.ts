import { describe, expect, it } from 'vitest'
import { ctx, metric, model } from '../../test/fixtures/query.js'
import { compileMetric } from './compile.js'
import { getDialect } from './dialects/registry.js'
import type { AppliedFilter } from './filters.js'

/** A SQL metric takes the dashboard filters it declares, on the tables its text reads, as bound values. */
describe('SQL metric dashboardFilters', () => {
  const pg = getDialect('postgres')
  const sql = metric(undefined, {
    sql: 'select status, count(*) n from orders o group by status',
    dashboardFilters: ['status', 'period'],
  })
  const filter = (name: string, column: string, value: unknown, table = 'public.orders'): AppliedFilter => ({
    table,
    column,
    name,
    value: value as AppliedFilter['value'],
    source: 'dashboard',
    scope: 'dashboard',
    type: name === 'period' ? 'date-range' : 'multi-select',
  })
  const run = (filters: AppliedFilter[], tenancy = ctx().tenancy) =>
    compileMetric({ metric: sql, model: model(), dialect: pg, context: ctx({ filters, tenancy }) })

  it('applies a declared filter inside the scoped table, its values bound', () => {
    const out = run([filter('status', 'status', ["paid' --", 'shipped'])])
    expect(out.sql).toBe(
      'select status, count(*) n from (SELECT * FROM "public"."orders" AS "s" WHERE "s"."status" IN ($1, $2)) o group by status',
    )
    expect(out.params).toEqual(["paid' --", 'shipped'])
  })

  it('ANDs the tenant and a date preset, in the zone, and leaves out filters it does not declare', () => {
    const out = run(
      [filter('period', 'created_at', 'Last 7 days'), filter('country', 'name', ['DE'], 'public.customers')],
      { kind: 'table', clientId: 'acme' },
    )
    const at = `(("s"."created_at" AT TIME ZONE 'UTC') AT TIME ZONE $2)`
    expect(out.sql).toBe(
      `select status, count(*) n from (SELECT * FROM "public"."orders" AS "s" WHERE ("s"."client_id" = $1 AND (${at} >= $3 AND ${at} < $4))) o group by status`,
    )
    expect(out.params.slice(0, 2)).toEqual(['acme', 'UTC'])
    expect(out.params).not.toContain('DE')
  })

  it('compiles as before without a declaration or a value', () => {
    expect(run([]).sql).toBe('select status, count(*) n from "public"."orders" o group by status')
    const undeclared = compileMetric({
      metric: { ...sql, dashboardFilters: [] },
      model: model(),
      dialect: pg,
      context: ctx({ filters: [filter('status', 'status', ['paid'])] }),
    })
    expect(undeclared.params).toEqual([])
  })
})
