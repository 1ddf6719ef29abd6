import type { Permissions, RuntimeMetric } from '../../api/types.js'

export type CardAction = 'edit' | 'reset' | 'archive' | 'publish' | 'delete' | 'hide' | 'remove'

/**
 * A card's menu, in order: Edit (update, and a definition the builder can edit), Reset to the
 * company's version (update; this tenant's version of a company metric), Archive,
 * Publish (manage; this user's private metric), then Delete (a tenant's metric) or Hide (a
 * company metric: DELETE hides it for this tenant), both under the delete capability. In the
 * company's mode (the studio authoring the document), Edit and "Remove from dashboard", which
 * takes the metric out of the company's document (company-mode.ts).
 */
export function cardActions(p: Permissions, m: RuntimeMetric, company = false): CardAction[] {
  if (company) return [...(p.metricUpdate && m.definition ? (['edit'] as const) : []), 'remove']
  const actions: CardAction[] = []
  if (p.metricUpdate && m.definition) actions.push('edit')
  if (p.metricUpdate && m.tenantVersion) actions.push('reset')
  if (p.archiveMetrics) actions.push('archive')
  if (p.manageMetrics && m.visibility === 'private' && !m.isPublished) actions.push('publish')
  if (p.metricDeletion) actions.push(m.origin === 'tenant' ? 'delete' : 'hide')
  return actions
}

export const ACTION_LABELS: Record<CardAction, string> = {
  edit: 'Edit',
  reset: "Reset to the company's version",
  archive: 'Archive',
  publish: 'Share with everyone',
  delete: 'Delete',
  hide: 'Hide',
  remove: 'Remove from dashboard',
}

export interface ConfirmRequest {
  readonly title: string
  readonly message: string
  readonly confirm: string
  /** The other button's label (default "Cancel"). */
  readonly cancel?: string
  readonly danger: boolean
  /**
   * Where focus starts: by default Cancel for a danger (Enter does not destroy by accident),
   * else the confirm button; 'confirm' where Enter is meant to confirm.
   */
  readonly focus?: 'confirm' | 'cancel'
}

/** The actions that ask first: those that cannot be undone from the dashboard. */
export const CONFIRM: Partial<Record<CardAction, (name: string) => ConfirmRequest>> = {
  delete: (name) => ({
    title: 'Delete this metric?',
    message: `“${name}” will be deleted for everyone who can see it. This cannot be undone.`,
    confirm: 'Delete',
    danger: true,
  }),
  hide: (name) => ({
    title: 'Hide this metric?',
    message: `“${name}” will no longer show on this dashboard for your organisation.`,
    confirm: 'Hide',
    danger: true,
  }),
  remove: (name) => ({
    title: 'Remove this metric from the dashboard?',
    message: `“${name}” and its card will be taken out of the company's dashboard, for every tenant. The cards after it move up to fill its place.`,
    confirm: 'Remove',
    danger: true,
  }),
  reset: (name) => ({
    title: "Reset to the company's version?",
    message: `Your organisation's changes to “${name}” will be dropped, and the company's version shows again.`,
    confirm: 'Reset',
    danger: true,
  }),
  publish: (name) => ({
    title: 'Share this metric?',
    message: `Everyone in your organisation will see “${name}” on this dashboard.`,
    confirm: 'Share',
    danger: false,
  }),
}
