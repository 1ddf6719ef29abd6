import type { Kysely, Migration } from 'kysely'

/**
 * The state of each rollup a dashboard document declares (docs/rollups.md): one row per
 * (dashboard, rollup name), deleted with its dashboard. `state` is building, ready, failed or
 * stale; `partitions` is the JSON list of the files the last build left (per tenant database
 * with DATABASE tenancy); `fingerprint` identifies the definition the files were built from
 * (a changed definition is rebuilt whole). `next_refresh_at` is an ISO instant (text sorts as
 * time on both stores); `leased_by`/`lease_until` are the once-only lease an instance takes with
 * a conditional UPDATE before it builds, as email reports do.
 */
export const rollups: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rollups')
      .addColumn('dashboard_row_id', 'text', (c) => c.notNull().references('dashboards.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('rows', 'integer', (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('partitions', 'text', (c) => c.notNull())
      .addColumn('built_fingerprint', 'text')
      .addColumn('last_refresh_at', 'text')
      .addColumn('data_as_of', 'text')
      .addColumn('next_refresh_at', 'text', (c) => c.notNull())
      .addColumn('last_error', 'text')
      .addColumn('leased_by', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('rollups_pk', ['dashboard_row_id', 'name'])
      .execute()
    // the scheduler's scan: due rollups in time order
    await db.schema.createIndex('rollups_due').on('rollups').column('next_refresh_at').execute()
    await db.schema.createIndex('rollups_organization').on('rollups').column('organization_id').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('rollups').execute()
  },
}
