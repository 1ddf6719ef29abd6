import type { Comparison } from '@strata/contract/document'
import type { EndUserMetricDefinition, SelfServeModel } from '@strata/contract/self-serve'
import type { GuestClaims } from '../../auth/principal.js'
import { ApiError, badRequest } from '../../errors.js'
import type { SemanticModel } from '../../query/model.js'
import { notInEmbed, privateMetrics, visibleMetrics } from '../guest-access/metrics.js'
import { effective, requireCapability } from '../guest-access/permissions.js'
import type { MetricResult } from '../query/metric-queries.js'
import type { Sources } from '../query/sources.js'
import type { Opened, Runtime } from '../runtime/runtime.js'
import type { Workspaces } from '../workspaces/workspaces.js'
import { companyFingerprint } from './company-fingerprint.js'
import { checkDefinition, shownDefinition } from './definition.js'
import { type EndUserMetric, type EndUserMetricStore, newMetricId, type TenantKey } from './metric-store.js'
import { overlay } from './overlay.js'
import { describeModel, visibleModel } from './visible-model.js'

export interface PreviewInput {
  readonly metric: EndUserMetricDefinition
  readonly dashboardFilter?: Readonly<Record<string, unknown>> | undefined
  readonly metricFilter?: Readonly<Record<string, unknown>> | undefined
  /** Run as a metric with this comparison runs (the answer's comparisonValue); nothing is saved. */
  readonly comparison?: Comparison | undefined
}

/** Preview's stand-in id on a dashboard embed (never stored: saved metrics get newMetricId). */
const PREVIEW_ID = 'u_preview'

/**
 * End users' metrics (docs/guest-tokens.md#permissions, docs/runtime-api.md#self-serve-metrics): each action behind its capability, on the token's
 * tenant (and user, for private metrics) only. A metric the token cannot see — another
 * tenant's, another user's private one, or none at all — is the one EMBED_PARAM_ERROR of the
 * runtime query, so existence never leaks. Definitions are checked against the visible model,
 * then compiled through the runtime's own path (tenancy, RLS, locked filters) before saving.
 */
export class SelfServeMetrics {
  constructor(
    private readonly runtime: Runtime,
    private readonly store: EndUserMetricStore,
    private readonly workspaces: Workspaces,
    private readonly sources: Sources,
  ) {}

  async model(claims: GuestClaims, id: string): Promise<SelfServeModel> {
    const opened = await this.runtime.open(claims, id)
    requireCapability(claims, opened.embed, 'metricCreation', 'Creating metrics')
    return describeModel(await this.visible(claims, opened))
  }

  async preview(claims: GuestClaims, id: string, input: PreviewInput): Promise<MetricResult> {
    const opened = await this.runtime.open(claims, id)
    const { embed } = opened
    const permissions = effective(claims, embed)
    if (!permissions.metricCreation && !permissions.metricUpdate) {
      throw new ApiError('INSUFFICIENT_PERMISSIONS', 403, 'Previewing metrics is not allowed for this embed and token')
    }
    const metricId = embed.metricId ?? PREVIEW_ID
    const { definition } = checkDefinition(input.metric, await this.visible(claims, opened), metricId)
    const candidate = withComparison(
      this.withDefinition(claims, opened, metricId, definition, embed.metricId !== null),
      metricId,
      input.comparison,
    )
    return this.runtime.run(claims, candidate, {
      metricId,
      ...(input.dashboardFilter ? { dashboardFilter: input.dashboardFilter } : {}),
      ...(input.metricFilter ? { metricFilter: input.metricFilter } : {}),
    })
  }

  async create(
    claims: GuestClaims,
    id: string,
    input: { metric: EndUserMetricDefinition; visibility?: 'shared' | 'private' | undefined },
  ): Promise<{ metricId: string }> {
    const opened = await this.runtime.open(claims, id)
    requireCapability(claims, opened.embed, 'metricCreation', 'Creating metrics')
    if (opened.embed.metricId !== null) {
      throw badRequest(`Embed ${opened.embed.embedId} shows one metric: end users create metrics on a dashboard embed`)
    }
    const user = claims.params.userIdentifier
    const visibility = input.visibility ?? (privateMetrics(claims, opened.company).byDefault ? 'private' : 'shared')
    if (visibility === 'private' && user === undefined) {
      throw badRequest('visibility: a private metric belongs to a user; this token has no params.userIdentifier')
    }
    const metricId = newMetricId()
    const { definition } = checkDefinition(input.metric, await this.visible(claims, opened), metricId)
    await this.compiles(claims, opened, metricId, definition, false)
    await this.store.insert(this.key(claims, opened), {
      metricId,
      userIdentifier: user ?? '',
      definition,
      visibility,
      basedOnCompany: false,
    })
    return { metricId }
  }

  /** A tenant metric's definition replaced; a company metric gets this tenant's version (copy on write). */
  async update(
    claims: GuestClaims,
    id: string,
    metricId: string,
    input: { metric: EndUserMetricDefinition },
  ): Promise<{ metricId: string }> {
    const opened = await this.runtime.open(claims, id)
    requireCapability(claims, opened.embed, 'metricUpdate', 'Updating metrics')
    const { origin } = this.visibleOne(claims, opened, metricId)
    const company = origin === 'company'
    if (company && opened.company.document.metrics.find((m) => m.metricId === metricId)?.sql !== undefined) {
      throw badRequest(`Metric ${metricId} is a SQL metric: it cannot be edited in the embed`)
    }
    const { definition } = checkDefinition(input.metric, await this.visible(claims, opened), metricId)
    await this.compiles(claims, opened, metricId, definition, company)
    const key = this.key(claims, opened)
    const existing = opened.overlay.tenant.metrics.find((m) => m.metricId === metricId)
    if (existing) await this.store.update(key, metricId, { definition })
    else {
      const base = opened.company.document.metrics.find((m) => m.metricId === metricId)
      await this.store.insert(key, {
        metricId,
        userIdentifier: claims.params.userIdentifier ?? '',
        definition,
        visibility: 'shared',
        basedOnCompany: true,
        // what the copy was made from: the load says when the company changes it (companyVersionChanged)
        ...(base ? { companyFingerprint: companyFingerprint(base) } : {}),
      })
    }
    return { metricId }
  }

  /**
   * The tenant's version of a company metric dropped: the company's answers again for the
   * whole tenant (the undo of an update, so the update capability). A company metric without a
   * version is left as it is; a tenant's own metric has no company version (400).
   */
  async resetOverride(claims: GuestClaims, id: string, metricId: string): Promise<{ metricId: string }> {
    const opened = await this.runtime.open(claims, id)
    requireCapability(claims, opened.embed, 'metricUpdate', 'Resetting a metric to the company’s version')
    const { origin } = this.knownOne(claims, opened, metricId)
    if (origin !== 'company') {
      throw badRequest(`Metric ${metricId} is this tenant's own metric: it has no company version to reset to`)
    }
    if (opened.overlay.tenant.metrics.some((m) => m.metricId === metricId && m.basedOnCompany)) {
      await this.store.remove(this.key(claims, opened), metricId)
    }
    return { metricId }
  }

  /**
   * "Keep mine": this tenant keeps its version of a company metric the company has changed
   * since the copy; the version now counts as made from the company's current metric, so the
   * load stops saying companyVersionChanged until the company changes the metric again (the
   * update capability, as for reset). A company metric without a version, or a tenant's own
   * metric, has nothing to keep (400).
   */
  async keepVersion(claims: GuestClaims, id: string, metricId: string): Promise<{ metricId: string }> {
    const opened = await this.runtime.open(claims, id)
    requireCapability(claims, opened.embed, 'metricUpdate', 'Keeping a version of a company metric')
    const { origin } = this.knownOne(claims, opened, metricId)
    const base = opened.company.document.metrics.find((m) => m.metricId === metricId)
    const version = opened.overlay.tenant.metrics.some((m) => m.metricId === metricId && m.basedOnCompany)
    if (origin !== 'company' || !base || !version) {
      throw badRequest(`Metric ${metricId} has no version of this tenant's over a company metric: nothing to keep`)
    }
    await this.store.update(this.key(claims, opened), metricId, { companyFingerprint: companyFingerprint(base) })
    return { metricId }
  }

  /** A company metric this tenant hid (DELETE …/metrics/:metricId) shown again (manage capability). */
  async restore(claims: GuestClaims, id: string, metricId: string): Promise<{ metricId: string }> {
    const opened = await this.runtime.open(claims, id)
    requireCapability(claims, opened.embed, 'manageMetrics', 'Restoring hidden metrics')
    const { embed } = opened
    const hidden = opened.overlay.hidden.some((h) => h.metricId === metricId)
    if (!hidden || (embed.metricId !== null && embed.metricId !== metricId)) throw notInEmbed(metricId, embed)
    await this.store.setState(this.key(claims, opened), metricId, { hidden: false })
    return { metricId }
  }

  /** A tenant metric is deleted; a company metric is hidden for this tenant (its version, if any, dropped). */
  async remove(claims: GuestClaims, id: string, metricId: string): Promise<{ metricId: string }> {
    const opened = await this.runtime.open(claims, id)
    requireCapability(claims, opened.embed, 'metricDeletion', 'Deleting metrics')
    const { origin } = this.knownOne(claims, opened, metricId)
    const key = this.key(claims, opened)
    if (origin === 'company') await this.store.setState(key, metricId, { hidden: true })
    await this.store.remove(key, metricId)
    return { metricId }
  }

  async archive(claims: GuestClaims, id: string, metricId: string, archived: boolean): Promise<{ metricId: string }> {
    const opened = await this.runtime.open(claims, id)
    requireCapability(
      claims,
      opened.embed,
      'archiveMetrics',
      archived ? 'Archiving metrics' : 'Restoring archived metrics',
    )
    const { origin } = archived ? this.visibleOne(claims, opened, metricId) : this.archivedOne(opened, metricId)
    const key = this.key(claims, opened)
    if (origin === 'company') await this.store.setState(key, metricId, { archived })
    else await this.store.update(key, metricId, { archived })
    return { metricId }
  }

  /** A user's private metric becomes visible to the whole tenant. */
  async publish(claims: GuestClaims, id: string, metricId: string): Promise<{ metricId: string }> {
    const opened = await this.runtime.open(claims, id)
    requireCapability(claims, opened.embed, 'manageMetrics', 'Publishing metrics')
    const { origin } = this.visibleOne(claims, opened, metricId)
    if (origin === 'company') throw badRequest(`Metric ${metricId} is the company's: it is published to every tenant`)
    await this.store.update(this.key(claims, opened), metricId, { published: true })
    return { metricId }
  }

  /**
   * For the AI pilot (services/ai): the visible model of an opened embed, as GET /model answers
   * it, and a check of a definition exactly as preview and save check it (the visible model,
   * then a compile with the token's tenancy, RLS and locked filters), answering the canonical
   * definition (columns by the names the model shows) or throwing the same 400 they would.
   */
  async checker(
    claims: GuestClaims,
    opened: Opened,
  ): Promise<{ model: SelfServeModel; check(metric: EndUserMetricDefinition): Promise<EndUserMetricDefinition> }> {
    const visible = await this.visible(claims, opened)
    const metricId = opened.embed.metricId ?? PREVIEW_ID
    return {
      model: describeModel(visible),
      check: async (metric) => {
        const { definition } = checkDefinition(metric, visible, metricId)
        await this.compiles(claims, opened, metricId, definition, opened.embed.metricId !== null)
        return shownDefinition(definition, visible)
      },
    }
  }

  private key(claims: GuestClaims, opened: Opened): TenantKey {
    return { dashboardRowId: opened.company.id, dataAppId: opened.embed.dataAppId, clientId: claims.clientId }
  }

  private async visible(claims: GuestClaims, opened: Opened): Promise<SemanticModel> {
    const workspace = await this.workspaces.get(opened.company.workspaceId)
    const source = await this.sources.resolve(workspace, {
      datasourceName: claims.datasourceName,
      dataMartName: claims.datamartName,
    })
    return visibleModel(source, opened.embed)
  }

  /** A metric of the token's effective set, else the runtime's EMBED_PARAM_ERROR. */
  private visibleOne(claims: GuestClaims, opened: Opened, metricId: string) {
    const metric = visibleMetrics(claims, opened.embed, opened.dashboard).find((m) => m.metricId === metricId)
    const origin = opened.overlay.origins.get(metricId)?.origin
    if (!metric || !origin) throw notInEmbed(metricId, opened.embed)
    return { metric, origin }
  }

  private archivedOne(opened: Opened, metricId: string): { origin: 'company' | 'tenant' } {
    const { embed } = opened
    const archived = opened.overlay.archived.some((a) => a.metricId === metricId)
    if (!archived || (embed.metricId !== null && embed.metricId !== metricId)) throw notInEmbed(metricId, embed)
    const company = opened.company.document.metrics.some((m) => m.metricId === metricId)
    return { origin: company ? 'company' : 'tenant' }
  }

  /** Visible or archived: what a delete may name. */
  private knownOne(claims: GuestClaims, opened: Opened, metricId: string): { origin: 'company' | 'tenant' } {
    if (opened.overlay.archived.some((a) => a.metricId === metricId)) return this.archivedOne(opened, metricId)
    return this.visibleOne(claims, opened, metricId)
  }

  /** The token's effective set with `definition` as metric `metricId` (as saving it would make it). */
  private withDefinition(
    claims: GuestClaims,
    opened: Opened,
    metricId: string,
    definition: EndUserMetricDefinition,
    basedOnCompany: boolean,
  ): Opened {
    const row: EndUserMetric = {
      metricId,
      userIdentifier: claims.params.userIdentifier ?? '',
      definition,
      visibility: 'shared',
      isPublished: true,
      archived: false,
      basedOnCompany,
      companyFingerprint: null,
      createdAt: '',
    }
    const tenant = {
      metrics: [...opened.overlay.tenant.metrics.filter((m) => m.metricId !== metricId), row],
      states: opened.overlay.tenant.states.filter((s) => s.metricId !== metricId),
    }
    const o = overlay(opened.company, tenant, claims)
    return { ...opened, dashboard: o.dashboard, overlay: o }
  }

  /** Compiled as the runtime would run it for this token (a 400 from the compiler is the save's). */
  private async compiles(
    claims: GuestClaims,
    opened: Opened,
    metricId: string,
    definition: EndUserMetricDefinition,
    basedOnCompany: boolean,
  ): Promise<void> {
    await this.runtime.check(claims, this.withDefinition(claims, opened, metricId, definition, basedOnCompany), {
      metricId,
    })
  }
}

/** The candidate with the preview's comparison on its metric (a metric with no measure has none to compare). */
function withComparison(opened: Opened, metricId: string, comparison: Comparison | undefined): Opened {
  if (!comparison) return opened
  const { dashboard } = opened
  const metrics = dashboard.document.metrics.map((m) =>
    m.metricId === metricId && m.query?.measures?.length ? { ...m, comparison } : m,
  )
  return { ...opened, dashboard: { ...dashboard, document: { ...dashboard.document, metrics } } }
}
