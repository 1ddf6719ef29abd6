import type { Kysely, Migration } from 'kysely'

/**
 * What a tenant's copy-on-write version of a company metric was made from: a fingerprint of
 * the company metric at the moment of the copy (services/self-serve/company-fingerprint.ts), so
 * the load can say when the company changed that metric since (`companyVersionChanged`). NULL for
 * a tenant's own metric, and for copies made before this column existed (never reported changed).
 */
export const tenantCopyBase: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('end_user_metrics').addColumn('company_fingerprint', 'text').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('end_user_metrics').dropColumn('company_fingerprint').execute()
  },
}
