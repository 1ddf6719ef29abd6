import type { Kysely, Migration } from 'kysely'

/**
 * End users' saved layouts and dashboard views (docs/runtime-api.md#the-end-users-layout), stored apart from the
 * company's dashboard document. Keyed by (dashboard, data app, clientId, userIdentifier), where
 * user_identifier is '' for a tenant-wide row (not NULL, so the keys are unique on both stores);
 * the key's columns lead each index, so a load reads its rows in one index range.
 */
export const layoutsAndViews: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('end_user_layouts')
      .addColumn('dashboard_row_id', 'text', (c) => c.notNull().references('dashboards.id').onDelete('cascade'))
      .addColumn('data_app_id', 'text', (c) => c.notNull().references('data_apps.id').onDelete('cascade'))
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('user_identifier', 'text', (c) => c.notNull())
      .addColumn('layout', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('end_user_layouts_key', [
        'dashboard_row_id',
        'data_app_id',
        'client_id',
        'user_identifier',
      ])
      .execute()
    // the data app's cascade (and removeEndUserState) find rows by data app without a scan
    await db.schema.createIndex('end_user_layouts_data_app').on('end_user_layouts').column('data_app_id').execute()
    await db.schema
      .createTable('dashboard_views')
      .addColumn('view_id', 'text', (c) => c.primaryKey())
      .addColumn('dashboard_row_id', 'text', (c) => c.notNull().references('dashboards.id').onDelete('cascade'))
      .addColumn('data_app_id', 'text', (c) => c.notNull().references('data_apps.id').onDelete('cascade'))
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('user_identifier', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('filters', 'text', (c) => c.notNull())
      .addColumn('layout', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('dashboard_views_key_name', [
        'dashboard_row_id',
        'data_app_id',
        'client_id',
        'user_identifier',
        'name',
      ])
      .execute()
    await db.schema.createIndex('dashboard_views_data_app').on('dashboard_views').column('data_app_id').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('dashboard_views').execute()
    await db.schema.dropTable('end_user_layouts').execute()
  },
}
