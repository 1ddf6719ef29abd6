import type { DashboardDocument } from '@strata/contract/document'
import { LRUCache } from 'lru-cache'
import type { SemanticModel } from '../../query/model.js'
import type { RollupCandidate } from '../../query/rollups/match.js'
import type { RollupPlan } from '../../query/rollups/types.js'
import type { Store } from '../../store/store.js'
import type { InvalidationBus } from '../events/bus.js'
import type { RollupPartition } from './builder.js'
import { plansOf } from './plans.js'

/** Dashboards whose ready rollups are held, and for how long (another instance's build is seen after it at most). */
const MAX_DASHBOARDS = 2000
const TTL_MS = 30_000

interface ReadyRow {
  readonly name: string
  readonly fingerprint: string
  readonly rows: number
  readonly partitions: readonly RollupPartition[]
  readonly builtAt: string
}

/**
 * The ready rollups of each dashboard, as metric queries may use them: a small in-memory view
 * (bounded, 30 s at most), dropped for a dashboard when one of its rollups starts or ends a
 * build or the dashboard changes (bus events, from every instance with Redis), so the hot path
 * never queries the store. A rollup is offered only when its state is `ready` and the
 * fingerprint its files were built for is the one the document and model give now.
 */
export class ReadyRollups {
  private readonly rows = new LRUCache<string, Promise<readonly ReadyRow[]>>({ max: MAX_DASHBOARDS, ttl: TTL_MS })
  /** The document's rollups planned against a model version: once per document object. */
  private readonly planned = new WeakMap<DashboardDocument, { version: string; plans: Map<string, RollupPlan> }>()

  constructor(
    private readonly store: Store,
    bus: InvalidationBus,
  ) {
    bus.on((event) => {
      if (event.kind === 'rollup' || event.kind === 'dashboard') this.rows.delete(event.dashboardRowId)
      if (event.kind === 'datasource' || event.kind === 'datamart') this.rows.clear()
    })
  }

  /** The rollups a request on this dashboard may be answered from; none when it declares none. */
  async of(
    dashboardRowId: string,
    document: DashboardDocument,
    model: SemanticModel,
    modelVersion: string,
  ): Promise<readonly RollupCandidate[]> {
    if (document.rollups === undefined) return []
    let rows = this.rows.get(dashboardRowId)
    if (rows === undefined) {
      rows = this.load(dashboardRowId)
      this.rows.set(dashboardRowId, rows)
      rows.catch(() => this.rows.delete(dashboardRowId))
    }
    const ready = await rows
    if (ready.length === 0) return []
    const plans = this.plansOf(document, model, modelVersion)
    return ready.flatMap((r) => {
      const plan = plans.get(r.name)
      if (plan === undefined || plan.fingerprint !== r.fingerprint) return []
      return [{ plan, rows: r.rows, files: r.partitions, builtAt: r.builtAt }]
    })
  }

  private plansOf(document: DashboardDocument, model: SemanticModel, version: string): Map<string, RollupPlan> {
    const known = this.planned.get(document)
    if (known?.version === version) return known.plans
    const plans = new Map<string, RollupPlan>()
    for (const p of plansOf(document, model)) if (p.plan) plans.set(p.name, p.plan)
    this.planned.set(document, { version, plans })
    return plans
  }

  private async load(dashboardRowId: string): Promise<readonly ReadyRow[]> {
    const rows = await this.store.db
      .selectFrom('rollups')
      .select(['name', 'fingerprint', 'built_fingerprint', 'rows', 'partitions', 'data_as_of'])
      .where('dashboard_row_id', '=', dashboardRowId)
      .where('state', '=', 'ready')
      .execute()
    return rows
      .filter((r) => r.built_fingerprint !== null && r.built_fingerprint === r.fingerprint)
      .map((r) => ({
        name: r.name,
        fingerprint: r.fingerprint,
        rows: Number(r.rows),
        partitions: JSON.parse(r.partitions) as RollupPartition[],
        builtAt: r.data_as_of ?? '',
      }))
  }
}
