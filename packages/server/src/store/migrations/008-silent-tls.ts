import type { Kysely, Migration } from 'kysely'

/**
 * TLS verified by default: what credentials that say nothing about TLS get is recorded per
 * datasource. Rows that exist when this runs were created when silence meant plain text
 * ('off'), and keep it, so an upgrade never breaks a connection that worked; the service
 * writes 'verify' on every row it creates from now on (docs/datasources.md#tls).
 */
export const silentTls: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('datasources')
      .addColumn('silent_tls', 'text', (c) => c.notNull().defaultTo('off'))
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('datasources').dropColumn('silent_tls').execute()
  },
}
