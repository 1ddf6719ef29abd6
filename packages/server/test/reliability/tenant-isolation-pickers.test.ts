/**
 * Issue 28: the tenant-isolation property for value pickers. Both value routes — a dashboard
 * filter's (`GET …/filters/:name/values`) and the builder's twin on a model column
 * (`GET …/model/columns/:table/:column/values`) — are asked, for generated tenants (the
 * warehouse's three plus tenants whose names hold LIKE wildcards, quotes and non-ASCII letters,
 * each with customers and orders of their own whose values hold the same), with generated RLS
 * values, locked (token) filters, searches (substrings of any tenant's values, LIKE wildcards
 * `%` and `_`, quotes, backslashes, SQL, non-ASCII, 200 characters) and cursors (another
 * tenant's nextCursor, or any page number). Every value answered is checked against SQL on the
 * warehouse: it is one of this tenant's rows' values, inside the RLS and locked countries, and
 * contains the search (case-insensitively, as text: a wildcard matches only itself); on the
 * customers' names (the table the RLS and the lock restrict) the first page is exactly SQL's
 * answer. Any answer but 200 is a 4xx in the error shape. Fixed seed; RUNS sets the number of runs.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { pickerDashboard } from '../helpers/analytics.js'
import { runtimeCalls } from '../helpers/runtime-calls.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'
import { TENANTS } from '../helpers/warehouse.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)
const RUNS = Number(process.env.RUNS ?? process.env.ISOLATION_RUNS_PICKERS ?? 60)
const SEED = 28_2026

/** Tenants of their own, named to trip a query that pastes text (LIKE wildcards, quotes, accents). */
const GENERATED = ['50%_off', "o'hara", 'zürich_ß', 'back\\slash'] as const
const ALL_TENANTS: readonly string[] = [...TENANTS, ...GENERATED]
const COUNTRIES = ['DE', 'FR', 'US', 'JP'] as const
/** Values of the generated tenants' rows: each holds what a search could mistake for syntax. */
const ODD_NAMES = ['100% pure', 'under_score', "it's here", 'ÜNÏCODE ünïcode', 'back\\slash', 'percent%and_under']

describe.skipIf(!hasPg)('tenant isolation of value pickers (property: no value outside the tenant’s rows)', () => {
  const { wh, a } = useAnalytics('sqlite', {
    app: 'suite',
    // many tokens and calls in a few seconds: no rate limit
    env: { RATE_LIMIT: '0' },
    // each generated tenant: a customer per odd name (in every country in turn), and orders whose status is odd too
    prepare: async (w) => {
      let id = 1000
      for (const [ti, tenant] of GENERATED.entries()) {
        for (const [ni, name] of ODD_NAMES.entries()) {
          id++
          const country = COUNTRIES[(ti + ni) % COUNTRIES.length]
          await w.query(`insert into ${w.schema}.customers values ($1, $2, $3, $4)`, [
            id,
            `${name} ${tenant}`,
            country,
            tenant,
          ])
          await w.query(
            `insert into ${w.schema}.orders values ($1, $1, $2, $3, 10, timestamptz '2026-03-01 00:00:00+00')`,
            [id, tenant, `${name} ${ni}`],
          )
        }
      }
    },
  })

  /** The sales dashboard with a customer filter, a metric with RLS on customers.country, and an embed that may build. */
  let made: Promise<string> | undefined
  const setup = () => {
    made ??= pickerDashboard(a, wh.schema, 'picker-isolation')
    return made
  }

  /** Every value of every tenant's rows (the searches are cut from them, the checks read them). */
  const truth = async () => {
    const customers = await wh.query<{ name: string; country: string; tenant: string }>(
      `select name, country, tenant from ${wh.schema}.customers`,
    )
    const orders = await wh.query<{ status: string; tenant: string }>(
      `select distinct status, tenant from ${wh.schema}.orders`,
    )
    return { customers, orders }
  }

  const countries = fc.subarray([...COUNTRIES], { minLength: 1 })
  const search = (values: readonly string[]) =>
    fc.oneof(
      { arbitrary: fc.constant(''), weight: 2 },
      fc.constantFrom(
        '%',
        '_',
        '%%',
        '\\',
        '\\%',
        "'",
        "' or '1'='1",
        "%' union select tenant from customers --",
        'ü',
        'ÜNÏ',
        'ß',
        '😀',
        'x'.repeat(200),
        '%'.repeat(200),
      ),
      // a piece of some tenant's value (another tenant's too), in either case
      fc.tuple(fc.constantFrom(...values), fc.nat(), fc.nat(), fc.boolean()).map(([v, i, n, upper]) => {
        const start = i % v.length
        const piece = v.slice(start, start + 1 + (n % 8))
        return upper ? piece.toUpperCase() : piece
      }),
    )

  interface Case {
    readonly tenant: string
    readonly rls: readonly string[]
    readonly locked: readonly string[] | null
    readonly route: 'filter-customer' | 'column-customer' | 'filter-status' | 'column-status'
    readonly search: string
    /** Take the cursor from this tenant's first page (null: none; a number: that page). */
    readonly cursor: { readonly from: string } | number | null
  }

  it('answers only values of the tenant’s rows, inside its RLS and locked filters, whatever the search or cursor', async () => {
    const embedId = await setup()
    const { tokenFor, rt } = runtimeCalls(a)
    const { customers, orders } = await truth()
    const every = [...new Set([...customers.map((c) => c.name), ...orders.map((o) => o.status)])]
    const tokens = new Map<string, Promise<string>>()
    const tokenOf = (tenant: string, rls: readonly string[], locked: readonly string[] | null) => {
      const key = JSON.stringify([tenant, rls, locked])
      if (!tokens.has(key))
        tokens.set(
          key,
          tokenFor(tenant, {
            params: {
              rlsSettings: [{ metricId: 'by_country', values: { countries: rls } }],
              ...(locked
                ? { dashboardAppFilters: [{ dashboardId: 'picker-isolation', values: { country: locked } }] }
                : {}),
            },
          }),
        )
      return tokens.get(key) as Promise<string>
    }
    const pathOf = (route: Case['route']) =>
      ({
        'filter-customer': '/filters/customer/values',
        'column-customer': `/model/columns/${wh.schema}.customers/name/values`,
        'filter-status': '/filters/status/values',
        'column-status': `/model/columns/${wh.schema}.orders/status/values`,
      })[route]
    const ask = async (token: string, c: Pick<Case, 'route' | 'search'>, cursor?: string) => {
      const qs = new URLSearchParams()
      if (c.search) qs.set('search', c.search)
      if (cursor) qs.set('cursor', cursor)
      const query = qs.toString()
      return rt('GET', embedId, `${pathOf(c.route)}${query ? `?${query}` : ''}`, token)
    }

    const cases = fc.record<Case>({
      tenant: fc.constantFrom(...ALL_TENANTS),
      rls: countries,
      locked: fc.option(countries, { nil: null, freq: 2 }),
      route: fc.constantFrom('filter-customer', 'column-customer', 'filter-status', 'column-status'),
      search: search(every),
      cursor: fc.oneof(
        { arbitrary: fc.constant(null), weight: 3 },
        fc.record({ from: fc.constantFrom(...ALL_TENANTS) }),
        fc.integer({ min: 1, max: 999 }),
      ),
    })

    // how many runs were answered, and with values: a property of refusals alone would prove nothing
    let answered = 0
    let withValues = 0
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const token = await tokenOf(c.tenant, c.rls, c.locked)
        let cursor: string | undefined
        if (typeof c.cursor === 'number') cursor = String(c.cursor)
        else if (c.cursor) {
          // another tenant's (or this one's) next page, as its first page answered it
          const other = await tokenOf(c.cursor.from, c.rls, c.locked)
          const first = await ask(other, { route: c.route, search: '' })
          cursor = first.statusCode === 200 ? (first.json().data.nextCursor ?? '2') : '2'
        }
        const res = await ask(token, c, cursor)
        const label = JSON.stringify({ ...c, cursor })
        if (res.statusCode !== 200) {
          expect(res.statusCode, `${label}: ${res.body}`).toBeGreaterThanOrEqual(400)
          expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(500)
          const body = res.json() as { error?: { code?: unknown; message?: unknown } }
          expect(typeof body.error?.code, label).toBe('string')
          expect(typeof body.error?.message, label).toBe('string')
          return
        }
        const values = (res.json() as { data: { values: unknown[] } }).data.values.map(String)
        answered++
        if (values.length > 0) withValues++
        const allowed = new Set(c.locked ? c.rls.filter((x) => c.locked?.includes(x)) : c.rls)
        const needle = c.search.trim().toLowerCase()
        const mine =
          c.route === 'filter-customer' || c.route === 'column-customer'
            ? customers.filter((r) => r.tenant === c.tenant && allowed.has(r.country)).map((r) => r.name)
            : orders.filter((r) => r.tenant === c.tenant).map((r) => r.status)
        const own = new Set(mine)
        for (const v of values) {
          expect(own.has(v), `${label}: ${v} is not a value of ${c.tenant}'s rows`).toBe(true)
          // the search is text: a wildcard, quote or backslash matches only itself
          if (needle) expect(v.toLowerCase().includes(needle), `${label}: ${v} does not contain the search`).toBe(true)
        }
        // the customers' names (the RLS and the lock restrict their table): the first page is exactly SQL's
        if (
          !cursor &&
          (c.route === 'filter-customer' || c.route === 'column-customer') &&
          /^[\x20-\x7e]*$/.test(needle)
        ) {
          const sql = await wh.query<{ name: string }>(
            `select distinct name from ${wh.schema}.customers
             where tenant = $1 and country = any($2) and strpos(lower(name), $3) > 0 order by name`,
            [c.tenant, [...allowed], needle],
          )
          expect(values, label).toEqual(sql.map((r) => r.name).slice(0, 100))
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    )
    console.log(`value pickers: ${answered} of ${RUNS} runs answered, ${withValues} with values`)
    expect(answered).toBeGreaterThan(RUNS / 2)
    expect(withValues).toBeGreaterThan(RUNS / 5)
  }, 300_000)

  it('a tenant’s search for another tenant’s exact value answers nothing, on both routes', async () => {
    const embedId = await setup()
    const { tokenFor, rt } = runtimeCalls(a)
    const { customers } = await truth()
    for (const tenant of ALL_TENANTS) {
      const token = await tokenFor(tenant, {
        params: { rlsSettings: [{ metricId: 'by_country', values: { countries: [...COUNTRIES] } }] },
      })
      const foreign = customers.filter((r) => r.tenant !== tenant).map((r) => r.name)
      for (const name of foreign.slice(0, 12)) {
        for (const path of ['/filters/customer/values', `/model/columns/${wh.schema}.customers/name/values`]) {
          const res = await rt('GET', embedId, `${path}?search=${encodeURIComponent(name)}`, token)
          expect(res.statusCode, res.body).toBe(200)
          const values = (res.json() as { data: { values: string[] } }).data.values
          // a foreign name can only come back when it is also this tenant's own (never here: names carry their tenant)
          expect(values.filter((v) => v === name)).toEqual([])
        }
      }
    }
  }, 120_000)
})
