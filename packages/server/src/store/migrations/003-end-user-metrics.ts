import type { Kysely, Migration } from 'kysely'

/**
 * What end users make of a dashboard's metrics (docs/runtime-api.md#self-serve-metrics), apart from its document:
 * their own metrics (and their tenant's copy-on-write versions of company metrics), and each
 * tenant's hidden or archived company metrics. Keyed by dashboard, data app and clientId;
 * `user_identifier` is '' for tenant-wide items (not NULL, so unique constraints hold on both
 * stores). Both cascade with their dashboard and their data app.
 */
export const endUserMetrics: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('end_user_metrics')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('metric_id', 'text', (c) => c.notNull())
      .addColumn('dashboard_row_id', 'text', (c) => c.notNull().references('dashboards.id').onDelete('cascade'))
      .addColumn('data_app_id', 'text', (c) => c.notNull().references('data_apps.id').onDelete('cascade'))
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('user_identifier', 'text', (c) => c.notNull())
      .addColumn('definition', 'text', (c) => c.notNull())
      .addColumn('visibility', 'text', (c) => c.notNull())
      .addColumn('is_published', 'integer', (c) => c.notNull())
      .addColumn('archived', 'integer', (c) => c.notNull())
      .addColumn('based_on_company', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('end_user_metrics_key', ['dashboard_row_id', 'data_app_id', 'client_id', 'metric_id'])
      .execute()
    // The unique key serves the load's lookup (dashboard, data app, client); this one the
    // data-app metric list and the cleanup when a data app's last embed of a dashboard goes.
    await db.schema
      .createIndex('end_user_metrics_data_app')
      .on('end_user_metrics')
      .columns(['data_app_id', 'dashboard_row_id'])
      .execute()
    await db.schema
      .createTable('company_metric_states')
      .addColumn('dashboard_row_id', 'text', (c) => c.notNull().references('dashboards.id').onDelete('cascade'))
      .addColumn('data_app_id', 'text', (c) => c.notNull().references('data_apps.id').onDelete('cascade'))
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('metric_id', 'text', (c) => c.notNull())
      .addColumn('hidden', 'integer', (c) => c.notNull())
      .addColumn('archived', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('company_metric_states_key', [
        'dashboard_row_id',
        'data_app_id',
        'client_id',
        'metric_id',
      ])
      .execute()
    await db.schema
      .createIndex('company_metric_states_data_app')
      .on('company_metric_states')
      .columns(['data_app_id', 'dashboard_row_id'])
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('company_metric_states').execute()
    await db.schema.dropTable('end_user_metrics').execute()
  },
}
