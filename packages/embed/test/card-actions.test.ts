import { describe, expect, it } from 'vitest'
import type { Permissions, RuntimeMetric } from '../src/api/types.js'
import { CONFIRM, cardActions } from '../src/self-serve/menus/card-actions.js'
import { anySelfServe, canCreate, canRestore } from '../src/self-serve/permissions.js'
import { noPermissions } from './fixtures.js'

const none = noPermissions
const all: Permissions = {
  ...none,
  metricCreation: true,
  metricUpdate: true,
  metricDeletion: true,
  manageMetrics: true,
  archiveMetrics: true,
}
const definition = {
  name: 'Orders',
  chart: { type: 'single-value' as const },
  query: { from: 'main.orders', measures: [{ name: 'count', aggregate: 'count' as const }] },
}
const company: RuntimeMetric = {
  metricId: 'c',
  name: 'C',
  chart: { type: 'bar' },
  origin: 'company',
  visibility: 'shared',
  isPublished: true,
  createdByUser: null,
}
const mine: RuntimeMetric = {
  metricId: 'u_1',
  name: 'Mine',
  chart: { type: 'single-value' },
  origin: 'tenant',
  visibility: 'private',
  isPublished: false,
  createdByUser: 'ada',
  definition,
}

describe('which self-serve controls show', () => {
  it('shows nothing without a permission, and loads nothing', () => {
    expect(anySelfServe(none)).toBe(false)
    // underlying data alone loads the module: its card menu offers "View underlying data"
    expect(anySelfServe({ ...none, underlyingData: true })).toBe(true)
    expect(cardActions(none, mine)).toEqual([])
    expect(canCreate(none)).toBe(false)
    expect(canRestore(none)).toBe(false)
  })

  it('offers the builder in DRAG_DROP mode, and in CHAT mode only when the AI pilot answers', () => {
    const noAi = { metric: false, summary: false, suggestions: false }
    const chat = { ...none, metricCreation: true, metricCreationMode: 'CHAT' } as const
    expect(canCreate(all)).toBe(true)
    expect(canCreate({ ...all, metricCreationMode: 'CHAT' })).toBe(false)
    expect(canCreate({ ...all, metricCreationMode: 'CHAT' }, noAi)).toBe(false)
    expect(anySelfServe(chat)).toBe(false)
    expect(anySelfServe(chat, { ...noAi, suggestions: true })).toBe(false)
    expect(canCreate(chat, { ...noAi, metric: true })).toBe(true)
    expect(anySelfServe(chat, { ...noAi, metric: true })).toBe(true)
    // creation off: the AI answer changes nothing
    expect(canCreate({ ...chat, metricCreation: false }, { ...noAi, metric: true })).toBe(false)
  })

  it('loads the module for the summary line alone, not for suggestions alone', () => {
    const noAi = { metric: false, summary: false, suggestions: false }
    expect(anySelfServe(none, { ...noAi, summary: true })).toBe(true)
    expect(anySelfServe(none, { ...noAi, suggestions: true })).toBe(false)
  })

  it('edits only a metric with a definition; deletes a tenant metric, hides a company one', () => {
    expect(cardActions(all, mine)).toEqual(['edit', 'archive', 'publish', 'delete'])
    expect(cardActions(all, company)).toEqual(['archive', 'hide'])
    expect(cardActions({ ...all, metricDeletion: false }, company)).toEqual(['archive'])
  })

  it('publishes only a private metric not yet published, with manage', () => {
    expect(cardActions({ ...none, manageMetrics: true }, mine)).toEqual(['publish'])
    expect(cardActions({ ...none, manageMetrics: true }, { ...mine, isPublished: true })).toEqual([])
    expect(cardActions({ ...none, manageMetrics: true }, { ...mine, visibility: 'shared' })).toEqual([])
  })

  it('asks before deleting, hiding and sharing, not before archiving', () => {
    expect(CONFIRM.delete?.('X')).toMatchObject({ danger: true, confirm: 'Delete' })
    expect(CONFIRM.hide?.('X')).toMatchObject({ danger: true })
    expect(CONFIRM.publish?.('X')).toMatchObject({ danger: false })
    expect(CONFIRM.archive).toBeUndefined()
  })
})

describe("reset to the company's version", () => {
  const version: RuntimeMetric = { ...company, definition, tenantVersion: true }
  it('is offered on a tenant version of a company metric, under the update capability only', () => {
    expect(cardActions(all, version)).toEqual(['edit', 'reset', 'archive', 'hide'])
    expect(cardActions({ ...none, metricUpdate: true }, version)).toEqual(['edit', 'reset'])
    expect(cardActions({ ...all, metricUpdate: false }, version)).not.toContain('reset')
    expect(cardActions(all, { ...company, definition })).not.toContain('reset')
  })
  it('asks first', () => {
    expect(CONFIRM.reset?.('C')).toMatchObject({ confirm: 'Reset', danger: true })
  })
})

describe("a card's menu in the company's mode (the studio)", () => {
  const authoring: Permissions = { ...none, metricCreation: true, metricUpdate: true, customizeLayout: true }
  it('offers Edit where the builder can edit the metric, and always Remove from dashboard', () => {
    expect(cardActions(authoring, { ...company, definition }, true)).toEqual(['edit', 'remove'])
    // a SQL metric has no definition the builder edits: it can still be removed
    expect(cardActions(authoring, company, true)).toEqual(['remove'])
    // never an end user's actions (hide, archive …), whatever the token allows
    expect(cardActions(all, company, true)).toEqual(['remove'])
  })
  it('asks before removing, naming the metric and who it is removed for', () => {
    const ask = CONFIRM.remove?.('Revenue')
    expect(ask).toMatchObject({ confirm: 'Remove', danger: true })
    expect(ask?.message).toContain('“Revenue”')
    expect(ask?.message).toMatch(/every tenant/)
  })
})
