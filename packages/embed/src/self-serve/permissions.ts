import type { Permissions, RuntimeEmbed } from '../api/types.js'

/**
 * Which self-serve control the effective permissions (docs/guest-tokens.md#permissions, sent by the load) show.
 * The server checks each call again; these only keep controls that would be refused out of sight.
 * Part of the entry module (the dashboard decides with anySelfServe whether to load the rest).
 */

/** Which AI pilot routes answer for this token (the load's `ai`, docs/runtime-api.md#ai-pilot). */
export type AiFlags = RuntimeEmbed['ai']

/**
 * "New metric": creation allowed, with the builder (DRAG_DROP), or with the builder and its Ask
 * box (CHAT, when the AI pilot answers). CHAT without a working AI pilot: no "New metric".
 */
export const canCreate = (p: Permissions, ai?: AiFlags): boolean =>
  p.metricCreation && (p.metricCreationMode === 'DRAG_DROP' || ai?.metric === true)

/** The "Archived" list: archive and unarchive share the archive capability (docs/runtime-api.md#archive-and-restore). */
export const canRestore = (p: Permissions): boolean => p.archiveMetrics

/** Whether anything self-serve can show, so the dashboard loads the module at all. */
export const anySelfServe = (p: Permissions, ai?: AiFlags): boolean =>
  canCreate(p, ai) ||
  p.underlyingData ||
  p.metricUpdate ||
  p.metricDeletion ||
  p.manageMetrics ||
  p.archiveMetrics ||
  ai?.summary === true

/** "Reports": the load says email reports work (the permission AND SMTP on the server, docs/runtime-api.md#email-reports). */
export const canReport = (embed: Pick<RuntimeEmbed, 'reports'>): boolean => embed.reports?.available === true

/** Whether the dashboard loads the self-serve module: anything self-serve, the AI summary, or the reports. */
export const wantsSelfServe = (embed: Pick<RuntimeEmbed, 'permissions' | 'ai' | 'reports'>): boolean =>
  anySelfServe(embed.permissions, embed.ai) || canReport(embed)
