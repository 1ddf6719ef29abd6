import type { Kysely, Migration } from 'kysely'

/**
 * What the empty-dashboard embed records beside the document: the dashboard's own `metadata`
 * (a JSON object the caller chose; the embeds list shows it) and the embed's description. NULL
 * when none was given, and for rows made before these columns existed.
 */
export const dashboardMetadata: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('dashboards').addColumn('metadata', 'text').execute()
    await db.schema.alterTable('embeds').addColumn('description', 'text').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('embeds').dropColumn('description').execute()
    await db.schema.alterTable('dashboards').dropColumn('metadata').execute()
  },
}
