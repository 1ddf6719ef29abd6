import type { Permissions, RuntimeEmbed } from '../api/types.js'

/**
 * Which self-serve control the effective permissions (DESIGN.md §2.7, sent by the load) show.
 * The server checks each call again; these only keep controls that would be refused out of sight.
 * Part of the entry module (the dashboard decides with anySelfServe whether to load the rest).
 */

/** "New metric": creation allowed, with the builder (not the chat). */
export const canCreate = (p: Permissions): boolean => p.metricCreation && p.metricCreationMode === 'DRAG_DROP'

/** The "Archived" list: archive and unarchive share the archive capability (§2.8). */
export const canRestore = (p: Permissions): boolean => p.archiveMetrics

/** Whether anything self-serve can show, so the dashboard loads the module at all. */
export const anySelfServe = (p: Permissions): boolean =>
  canCreate(p) || p.metricUpdate || p.metricDeletion || p.manageMetrics || p.archiveMetrics

/** "Reports": the load says email reports work (the permission AND SMTP on the server, §2.9). */
export const canReport = (embed: Pick<RuntimeEmbed, 'reports'>): boolean => embed.reports?.available === true

/** Whether the dashboard loads the self-serve module: anything self-serve, or the reports. */
export const wantsSelfServe = (embed: Pick<RuntimeEmbed, 'permissions' | 'reports'>): boolean =>
  anySelfServe(embed.permissions) || canReport(embed)
