import type { Kysely, Migration } from 'kysely'

/**
 * Scheduled email reports (docs/runtime-api.md#email-reports). A report belongs to one embed (its row: deleting
 * the embed, its dashboard or its data app deletes the report too) and to the key of the token
 * that created it (data app, clientId, userIdentifier, '' for a tenant-wide token). `claims` is
 * the creating token's claims, sealed with the server's keyring. `next_run_at` is an ISO instant
 * (text sorts as time on both stores); `leased_by`/`lease_until` are the once-only lease an
 * instance takes with a conditional UPDATE before it sends.
 */
export const emailReports: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('email_reports')
      .addColumn('report_id', 'text', (c) => c.primaryKey())
      .addColumn('embed_row_id', 'text', (c) => c.notNull().references('embeds.id').onDelete('cascade'))
      .addColumn('embed_id', 'text', (c) => c.notNull())
      .addColumn('data_app_id', 'text', (c) => c.notNull().references('data_apps.id').onDelete('cascade'))
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('user_identifier', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text')
      .addColumn('claims', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('definition', 'text', (c) => c.notNull())
      .addColumn('timezone', 'text', (c) => c.notNull())
      .addColumn('next_run_at', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('last_sent_at', 'text')
      .addColumn('last_error', 'text')
      .addColumn('leased_by', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute()
    // the scheduler's scan: due reports in time order
    await db.schema.createIndex('email_reports_due').on('email_reports').columns(['state', 'next_run_at']).execute()
    // a token's list (and the data app's) reads one range
    await db.schema
      .createIndex('email_reports_key')
      .on('email_reports')
      .columns(['data_app_id', 'client_id', 'user_identifier', 'embed_row_id'])
      .execute()
    await db.schema.createIndex('email_reports_embed').on('email_reports').column('embed_row_id').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('email_reports').execute()
  },
}
