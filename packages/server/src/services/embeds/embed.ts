import { randomBytes } from 'node:crypto'
import { newId } from '../../security/secrets.js'
import type { EmbedRow } from '../../store/schema.js'
import { now } from '../../store/store.js'
import type { AccessSettingsInput } from './access-settings.js'

export type EmbedType = 'dashboard' | 'metric'

export interface Embed {
  readonly id: string
  readonly dataAppId: string
  readonly embedId: string
  readonly embedType: EmbedType
  readonly name: string
  readonly dashboardRowId: string
  readonly metricId: string | null
  readonly accessSettings: AccessSettingsInput
  readonly createdAt: string
  readonly updatedAt: string
}

/** The ids a guest token of a data app may name: its embeds, their dashboards and those dashboards' metrics. */
export interface DataAppIds {
  readonly embedIds: ReadonlySet<string>
  readonly dashboardIds: ReadonlySet<string>
  readonly metricIds: ReadonlySet<string>
}

export interface CreateEmbedInput {
  readonly dashboardId: string
  readonly embedType: EmbedType
  readonly metricId?: string
  readonly workspaceName: string
  readonly name?: string
  readonly accessSettings?: Record<string, unknown>
}

/** What a new embed row is made of; the rest (ids, timestamps, the default name) comes from `newEmbedRow`. */
export type NewEmbed = Pick<Embed, 'embedType' | 'dashboardRowId' | 'metricId' | 'accessSettings'> & {
  readonly name?: string | undefined
  readonly description?: string | null
}

/** A new embed's row: a fresh `emb_` id, named after it unless a name is given. */
export function newEmbedRow(dataAppId: string, input: NewEmbed): EmbedRow {
  const at = now()
  const embedId = `emb_${randomBytes(8).toString('hex')}`
  return {
    id: newId(),
    data_app_id: dataAppId,
    embed_id: embedId,
    embed_type: input.embedType,
    name: input.name ?? embedId,
    dashboard_row_id: input.dashboardRowId,
    metric_id: input.metricId,
    access_settings: JSON.stringify(input.accessSettings),
    description: input.description ?? null,
    created_at: at,
    updated_at: at,
  }
}

export function toEmbed(row: EmbedRow): Embed {
  return {
    id: row.id,
    dataAppId: row.data_app_id,
    embedId: row.embed_id,
    embedType: row.embed_type as EmbedType,
    name: row.name,
    dashboardRowId: row.dashboard_row_id,
    metricId: row.metric_id,
    accessSettings: JSON.parse(row.access_settings) as AccessSettingsInput,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
