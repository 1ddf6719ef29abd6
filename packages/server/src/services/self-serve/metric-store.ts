import { randomBytes } from 'node:crypto'
import { type EndUserMetricDefinition, MAX_PRIVATE_METRICS, MAX_TENANT_METRICS } from '@strata/contract/self-serve'
import { sql } from 'kysely'
import { badRequest } from '../../errors.js'
import { newId } from '../../security/secrets.js'
import type { EndUserMetricRow } from '../../store/schema.js'
import { now, type Store } from '../../store/store.js'
import type { InvalidationBus } from '../events/bus.js'
import { ofTenant, tenantOf } from './end-user-state.js'

/** Where a tenant's items hang: a dashboard, the data app whose embed it is seen through, a client. */
export interface TenantKey {
  readonly dashboardRowId: string
  readonly dataAppId: string
  readonly clientId: string
}

/** A tenant's metric, or its copy-on-write version of a company metric (`basedOnCompany`). */
export interface EndUserMetric {
  readonly metricId: string
  /** The creating user's userIdentifier; '' when the token had none. */
  readonly userIdentifier: string
  readonly definition: EndUserMetricDefinition
  readonly visibility: 'shared' | 'private'
  readonly isPublished: boolean
  readonly archived: boolean
  readonly basedOnCompany: boolean
  /** A version: the fingerprint of the company metric it was copied from (company-fingerprint.ts); null when unknown. */
  readonly companyFingerprint: string | null
  readonly createdAt: string
}

/** A tenant's state of a company metric. */
export interface CompanyMetricState {
  readonly metricId: string
  readonly hidden: boolean
  readonly archived: boolean
}

/** Everything one token's tenant holds on a dashboard, as one read gives it. */
export interface TenantMetrics {
  readonly metrics: readonly EndUserMetric[]
  readonly states: readonly CompanyMetricState[]
}

/** Server-assigned ids of end users' metrics: `u_` and 12 url-safe random characters. */
export const newMetricId = (): string => `u_${randomBytes(9).toString('base64url')}`

/**
 * The two tables of migration 003. `forTenant` is the load's one read: both tables in one
 * statement (UNION ALL), each through the index that starts with (dashboard, data app, client),
 * private metrics only for their own user.
 */
export class EndUserMetricStore {
  constructor(
    private readonly store: Store,
    private readonly bus: InvalidationBus,
  ) {}

  /** Every write tells the runtime's cache of tenants' state (tenant-state.ts). */
  private changed(key: TenantKey): Promise<void> {
    return this.bus.publish({ kind: 'tenant-state', ...tenantOf(key) })
  }

  async forTenant(key: TenantKey, userIdentifier: string | undefined): Promise<TenantMetrics> {
    const db = this.store.db
    const user = userIdentifier ?? ''
    const rows = await db
      .selectFrom('end_user_metrics')
      .select([
        sql<string>`'metric'`.as('kind'),
        'metric_id',
        'user_identifier',
        'definition',
        'visibility',
        'is_published',
        'archived',
        'based_on_company',
        'company_fingerprint',
        sql<number>`0`.as('hidden'),
        'created_at',
      ])
      .where((eb) => eb.and(ofTenant(key)))
      .where((eb) =>
        eb.or([
          eb('visibility', '=', 'shared'),
          eb.and([eb('user_identifier', '=', user), eb('user_identifier', '!=', '')]),
        ]),
      )
      .unionAll(
        db
          .selectFrom('company_metric_states')
          .select([
            sql<string>`'state'`.as('kind'),
            'metric_id',
            sql<string>`''`.as('user_identifier'),
            sql<string>`''`.as('definition'),
            sql<'shared' | 'private'>`'shared'`.as('visibility'),
            sql<number>`1`.as('is_published'),
            'archived',
            sql<number>`1`.as('based_on_company'),
            sql<string | null>`null`.as('company_fingerprint'),
            'hidden',
            'updated_at as created_at',
          ])
          .where((eb) => eb.and(ofTenant(key))),
      )
      .orderBy('created_at')
      .orderBy('metric_id')
      .execute()
    const metrics: EndUserMetric[] = []
    const states: CompanyMetricState[] = []
    for (const r of rows) {
      if (r.kind === 'state') {
        states.push({ metricId: r.metric_id, hidden: r.hidden === 1, archived: r.archived === 1 })
      } else {
        metrics.push(toMetric(r))
      }
    }
    return { metrics, states }
  }

  async insert(
    key: TenantKey,
    metric: Pick<EndUserMetric, 'metricId' | 'userIdentifier' | 'definition' | 'visibility' | 'basedOnCompany'> & {
      readonly companyFingerprint?: string | undefined
    },
  ): Promise<void> {
    const at = now()
    const row: EndUserMetricRow = {
      id: newId(),
      metric_id: metric.metricId,
      dashboard_row_id: key.dashboardRowId,
      data_app_id: key.dataAppId,
      client_id: key.clientId,
      user_identifier: metric.userIdentifier,
      definition: JSON.stringify(metric.definition),
      visibility: metric.visibility,
      is_published: metric.visibility === 'shared' ? 1 : 0,
      archived: 0,
      based_on_company: metric.basedOnCompany ? 1 : 0,
      company_fingerprint: metric.companyFingerprint ?? null,
      created_at: at,
      updated_at: at,
    }
    await this.store.db.transaction().execute(async (tx) => {
      // the bounds, counted with the insert (copies of company metrics are bounded by the company's)
      if (!metric.basedOnCompany) {
        const { n, mine } = await tx
          .selectFrom('end_user_metrics')
          .select((eb) => [
            eb.fn.countAll<number | string>().as('n'),
            eb.fn
              .sum<number | string | null>(
                eb
                  .case()
                  .when(eb.and([eb('visibility', '=', 'private'), eb('user_identifier', '=', metric.userIdentifier)]))
                  .then(1)
                  .else(0)
                  .end(),
              )
              .as('mine'),
          ])
          .where((eb) => eb.and(ofTenant(key)))
          .where('based_on_company', '=', 0)
          .executeTakeFirstOrThrow()
        if (Number(n) >= MAX_TENANT_METRICS) {
          throw badRequest(
            `metric: at most ${MAX_TENANT_METRICS} metrics per tenant on a dashboard; this tenant has ${Number(n)}: delete one first`,
          )
        }
        if (metric.visibility === 'private' && Number(mine ?? 0) >= MAX_PRIVATE_METRICS) {
          throw badRequest(
            `visibility: at most ${MAX_PRIVATE_METRICS} private metrics per user on a dashboard; publish or delete one first`,
          )
        }
      }
      await tx.insertInto('end_user_metrics').values(row).execute()
    })
    await this.changed(key)
  }

  async update(
    key: TenantKey,
    metricId: string,
    patch: { definition?: EndUserMetricDefinition; archived?: boolean; published?: true; companyFingerprint?: string },
  ): Promise<void> {
    await this.store.db
      .updateTable('end_user_metrics')
      .set({
        ...(patch.definition ? { definition: JSON.stringify(patch.definition) } : {}),
        ...(patch.companyFingerprint ? { company_fingerprint: patch.companyFingerprint } : {}),
        ...(patch.archived !== undefined ? { archived: patch.archived ? 1 : 0 } : {}),
        ...(patch.published ? { visibility: 'shared' as const, is_published: 1 } : {}),
        updated_at: now(),
      })
      .where((eb) => eb.and(ofTenant(key)))
      .where('metric_id', '=', metricId)
      .execute()
    await this.changed(key)
  }

  async remove(key: TenantKey, metricId: string): Promise<void> {
    await this.store.db
      .deleteFrom('end_user_metrics')
      .where((eb) => eb.and(ofTenant(key)))
      .where('metric_id', '=', metricId)
      .execute()
    await this.changed(key)
  }

  /** Sets a tenant's state of a company metric (insert or update). */
  async setState(key: TenantKey, metricId: string, state: { hidden?: boolean; archived?: boolean }): Promise<void> {
    const at = now()
    await this.store.db
      .insertInto('company_metric_states')
      .values({
        dashboard_row_id: key.dashboardRowId,
        data_app_id: key.dataAppId,
        client_id: key.clientId,
        metric_id: metricId,
        hidden: state.hidden ? 1 : 0,
        archived: state.archived ? 1 : 0,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc.columns(['dashboard_row_id', 'data_app_id', 'client_id', 'metric_id']).doUpdateSet({
          ...(state.hidden !== undefined ? { hidden: state.hidden ? 1 : 0 } : {}),
          ...(state.archived !== undefined ? { archived: state.archived ? 1 : 0 } : {}),
          updated_at: at,
        }),
      )
      .execute()
    await this.changed(key)
  }

  /** Every end-user metric of a dashboard (all data apps and tenants): what a new company version is checked against. */
  async ofDashboard(
    dashboardRowId: string,
  ): Promise<readonly (EndUserMetric & { dataAppId: string; clientId: string })[]> {
    const rows = await this.store.db
      .selectFrom('end_user_metrics')
      .selectAll()
      .where('dashboard_row_id', '=', dashboardRowId)
      .orderBy('created_at')
      .execute()
    return rows.map((r) => ({
      ...toMetric(r),
      dataAppId: r.data_app_id,
      clientId: r.client_id,
    }))
  }

  /** Deletes end-user metrics by their row keys (a new company version dropped them). */
  async drop(
    dashboardRowId: string,
    items: readonly { dataAppId: string; clientId: string; metricId: string }[],
  ): Promise<void> {
    if (items.length === 0) return
    await this.store.db.transaction().execute(async (tx) => {
      for (const i of items) {
        await tx
          .deleteFrom('end_user_metrics')
          .where('dashboard_row_id', '=', dashboardRowId)
          .where('data_app_id', '=', i.dataAppId)
          .where('client_id', '=', i.clientId)
          .where('metric_id', '=', i.metricId)
          .execute()
      }
    })
    await this.bus.publish({ kind: 'tenant-state', dashboardRowId })
  }
}

/** The columns an EndUserMetric is read from (the load's union reads only these). */
type MetricColumns = Pick<
  EndUserMetricRow,
  | 'metric_id'
  | 'user_identifier'
  | 'definition'
  | 'visibility'
  | 'is_published'
  | 'archived'
  | 'based_on_company'
  | 'company_fingerprint'
  | 'created_at'
>

function toMetric(r: MetricColumns): EndUserMetric {
  return {
    metricId: r.metric_id,
    userIdentifier: r.user_identifier,
    definition: JSON.parse(r.definition) as EndUserMetricDefinition,
    visibility: r.visibility === 'private' ? 'private' : 'shared',
    isPublished: Number(r.is_published) === 1,
    archived: Number(r.archived) === 1,
    basedOnCompany: Number(r.based_on_company) === 1,
    companyFingerprint: r.company_fingerprint ?? null,
    createdAt: r.created_at,
  }
}
