import type { Kysely } from 'kysely'
import { paged } from '../../store/paging.js'
import type { Database } from '../../store/schema.js'
import { removeEndUserState } from '../self-serve/end-user-state.js'
import type { Embed } from './embed.js'
import type { EmbedListRow } from './embed-items.js'

/** The embeds table's statements beyond a single row's insert, read and update. */

/** A data app's embeds with their dashboards' columns, oldest first; `clientId`: that client's dashboards' embeds only. */
export function embedListRows(
  db: Kysely<Database>,
  dataAppId: string,
  options: { page?: number; clientId?: string },
): Promise<EmbedListRow[]> {
  let query = db
    .selectFrom('embeds')
    .innerJoin('dashboards', 'dashboards.id', 'embeds.dashboard_row_id')
    .selectAll('embeds')
    .select([
      'dashboards.dashboard_id',
      'dashboards.name as dashboard_name',
      'dashboards.document',
      'dashboards.metadata as dashboard_metadata',
      'dashboards.created_at as dashboard_created_at',
      'dashboards.updated_at as dashboard_updated_at',
    ])
    .where('embeds.data_app_id', '=', dataAppId)
    .orderBy('embeds.created_at')
    .orderBy('embeds.embed_id')
  if (options.clientId !== undefined) {
    query = query
      .where('embeds.embed_type', '=', 'dashboard')
      .where('dashboards.created_by_client', '=', options.clientId)
  }
  return paged(query, options.page).execute()
}

/** A data app's dashboard embeds, oldest first; `names`: of dashboards with these names only. */
export async function dashboardEmbeds(
  db: Kysely<Database>,
  dataAppId: string,
  options: { page?: number; names?: readonly string[] },
): Promise<{ name: string; externalDashboardId: string; embedId: string }[]> {
  let query = db
    .selectFrom('embeds')
    .innerJoin('dashboards', 'dashboards.id', 'embeds.dashboard_row_id')
    .select(['dashboards.name', 'dashboards.dashboard_id', 'embeds.embed_id'])
    .where('embeds.data_app_id', '=', dataAppId)
    .where('embeds.embed_type', '=', 'dashboard')
    .orderBy('embeds.created_at')
    .orderBy('embeds.embed_id')
  if (options.names?.length) query = query.where('dashboards.name', 'in', [...options.names])
  const rows = await paged(query, options.page).execute()
  return rows.map((r) => ({ name: r.name, externalDashboardId: r.dashboard_id, embedId: r.embed_id }))
}

/** A data app's embed ids with their dashboards' row and external ids. */
export function catalogRows(
  db: Kysely<Database>,
  dataAppId: string,
): Promise<{ embed_id: string; dashboard_row_id: string; dashboard_id: string }[]> {
  return db
    .selectFrom('embeds')
    .innerJoin('dashboards', 'dashboards.id', 'embeds.dashboard_row_id')
    .select(['embeds.embed_id', 'embeds.dashboard_row_id', 'dashboards.dashboard_id'])
    .where('embeds.data_app_id', '=', dataAppId)
    .execute()
}

/** The embed id of a data app's first dashboard embed of the dashboard with this external id. */
export async function firstDashboardEmbedId(
  db: Kysely<Database>,
  dataAppId: string,
  dashboardId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('embeds')
    .innerJoin('dashboards', 'dashboards.id', 'embeds.dashboard_row_id')
    .select('embeds.embed_id')
    .where('embeds.data_app_id', '=', dataAppId)
    .where('dashboards.dashboard_id', '=', dashboardId)
    .where('embeds.embed_type', '=', 'dashboard')
    .orderBy('embeds.created_at')
    .executeTakeFirst()
  return row?.embed_id
}

/** How many embeds (of any data app) show this dashboard. */
export async function embedsOfDashboard(db: Kysely<Database>, dashboardRowId: string): Promise<number> {
  const rows = await db.selectFrom('embeds').select('embed_id').where('dashboard_row_id', '=', dashboardRowId).execute()
  return rows.length
}

/**
 * Deletes the embed and, with `dashboardRowId`, that dashboard, in one transaction. With the data
 * app's last embed of the dashboard go the layouts and views its end users saved there.
 */
export function removeEmbed(db: Kysely<Database>, embed: Embed, dashboardRowId: string | undefined): Promise<void> {
  return db.transaction().execute(async (tx) => {
    await tx.deleteFrom('embeds').where('id', '=', embed.id).execute()
    if (dashboardRowId !== undefined) await tx.deleteFrom('dashboards').where('id', '=', dashboardRowId).execute()
    // the data app's last embed of this dashboard: what its end users saved on it goes too
    const another = await tx
      .selectFrom('embeds')
      .select('id')
      .where('dashboard_row_id', '=', embed.dashboardRowId)
      .where('data_app_id', '=', embed.dataAppId)
      .limit(1)
      .executeTakeFirst()
    if (!another) await removeEndUserState(tx, embed.dashboardRowId, embed.dataAppId)
  })
}
