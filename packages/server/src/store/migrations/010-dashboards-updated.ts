import type { Kysely, Migration } from 'kysely'

/**
 * An index on `dashboards.updated_at`: the rollup state sync asks which dashboards changed since
 * the newest change it saw (services/rollups/state-sync.ts), a range read on every pass.
 */
export const dashboardsUpdated: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.createIndex('dashboards_updated_at').on('dashboards').column('updated_at').execute()
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('dashboards_updated_at').execute()
  },
}
