import type { Kysely, Migration } from 'kysely'

/** Datasources, datamarts, workspaces, dashboards, embeds and guest tokens. */
export const analytics: Migration = {
  async up(db: Kysely<unknown>) {
    // One admin per organization (self-hosted): makes concurrent bootstrap race-free even when
    // the organization row already exists (the demo seeds it).
    await db.schema.createIndex('admins_one_per_org').unique().on('admins').column('organization_id').execute()
    await db.schema
      .createTable('datasources')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('credentials', 'text', (c) => c.notNull())
      .addColumn('tenancy_settings', 'text')
      .addColumn('schema_cache', 'text', (c) => c.notNull())
      .addColumn('schema_version', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('datasources_org_name', ['organization_id', 'name'])
      .execute()
    await db.schema
      .createTable('datamarts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('datasource_id', 'text', (c) => c.notNull().references('datasources.id'))
      .addColumn('tables', 'text', (c) => c.notNull())
      .addColumn('relationships', 'text', (c) => c.notNull())
      .addColumn('tenancy_settings', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('datamarts_org_name', ['organization_id', 'name'])
      .execute()
    await db.schema
      .createTable('workspaces')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('connection_type', 'text', (c) => c.notNull())
      .addColumn('datasource_id', 'text', (c) => c.references('datasources.id'))
      .addColumn('datamart_id', 'text', (c) => c.references('datamarts.id'))
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('workspaces_org_name', ['organization_id', 'name'])
      .execute()
    await db.schema
      .createTable('dashboards')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('dashboard_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('origin', 'text', (c) => c.notNull())
      .addColumn('created_by_client', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('dashboards_workspace_dashboard', ['workspace_id', 'dashboard_id'])
      .execute()
    await db.schema
      .createTable('embeds')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('data_app_id', 'text', (c) => c.notNull().references('data_apps.id').onDelete('cascade'))
      .addColumn('embed_id', 'text', (c) => c.notNull().unique())
      .addColumn('embed_type', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('dashboard_row_id', 'text', (c) => c.notNull().references('dashboards.id'))
      .addColumn('metric_id', 'text')
      .addColumn('access_settings', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('embeds_data_app').on('embeds').column('data_app_id').execute()
    await db.schema.createIndex('embeds_dashboard').on('embeds').column('dashboard_row_id').execute()
    await db.schema
      .createTable('guest_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('data_app_id', 'text', (c) => c.notNull().references('data_apps.id').onDelete('cascade'))
      .addColumn('claims', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .execute()
    await db.schema.createIndex('guest_tokens_expiry').on('guest_tokens').column('expires_at').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('admins_one_per_org').execute()
    for (const t of ['guest_tokens', 'embeds', 'dashboards', 'workspaces', 'datamarts', 'datasources']) {
      await db.schema.dropTable(t).execute()
    }
  },
}
