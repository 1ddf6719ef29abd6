import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { MetricQueryResultSchema } from '@strata/contract/runtime'
import {
  CreateMetricBody,
  MetricIdResult,
  PreviewBody,
  SelfServeModel,
  UpdateMetricBody,
} from '@strata/contract/self-serve'
import { principalOf } from '../../auth/hooks.js'
import { sendResult } from '../metric-result.js'
import { EmbedParams, MetricParams } from './params.js'
import { docs } from './self-serve-metrics.docs.js'
import { refuseStudioWrites } from './studio-writes.js'

/**
 * End users' metrics (docs/runtime-api.md#self-serve-metrics), registered inside the runtime's guest-token context
 * (runtime.ts): each route a schema and one service call.
 */
const selfServeMetrics: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.selfServeMetrics
  const claims = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'guest').claims
  const done = (metricId: string) => ({ data: { metricId }, error: null })
  refuseStudioWrites(app, ['/preview'])

  app.get(
    '/:embedId/model',
    { schema: { ...docs.getSelfServeModel, params: EmbedParams, response: { 200: SelfServeModel } } },
    async (request) => ({ data: await service.model(claims(request), request.params.embedId) }),
  )
  app.post(
    '/:embedId/preview',
    {
      schema: {
        ...docs.previewMetric,
        params: EmbedParams,
        body: PreviewBody,
        response: { 200: MetricQueryResultSchema },
      },
    },
    async (request, reply) =>
      sendResult(reply, await service.preview(claims(request), request.params.embedId, request.body)),
  )
  app.post(
    '/:embedId/metrics',
    {
      schema: { ...docs.createMetric, params: EmbedParams, body: CreateMetricBody, response: { 200: MetricIdResult } },
    },
    async (request) => done((await service.create(claims(request), request.params.embedId, request.body)).metricId),
  )
  app.put(
    '/:embedId/metrics/:metricId',
    {
      schema: {
        ...docs.updateMetric,
        params: MetricParams,
        body: UpdateMetricBody,
        response: { 200: MetricIdResult },
      },
    },
    async (request) => {
      const { embedId, metricId } = request.params
      return done((await service.update(claims(request), embedId, metricId, request.body)).metricId)
    },
  )
  app.delete(
    '/:embedId/metrics/:metricId',
    { schema: { ...docs.deleteMetric, params: MetricParams, response: { 200: MetricIdResult } } },
    async (request) => {
      const { embedId, metricId } = request.params
      return done((await service.remove(claims(request), embedId, metricId)).metricId)
    },
  )
  for (const [action, archived, doc] of [
    ['archive', true, docs.archiveMetric],
    ['unarchive', false, docs.unarchiveMetric],
  ] as const) {
    app.post(
      `/:embedId/metrics/:metricId/${action}`,
      { schema: { ...doc, params: MetricParams, response: { 200: MetricIdResult } } },
      async (request) => {
        const { embedId, metricId } = request.params
        return done((await service.archive(claims(request), embedId, metricId, archived)).metricId)
      },
    )
  }
  app.post(
    '/:embedId/metrics/:metricId/restore',
    { schema: { ...docs.restoreMetric, params: MetricParams, response: { 200: MetricIdResult } } },
    async (request) => {
      const { embedId, metricId } = request.params
      return done((await service.restore(claims(request), embedId, metricId)).metricId)
    },
  )
  app.delete(
    '/:embedId/metrics/:metricId/override',
    { schema: { ...docs.resetMetricOverride, params: MetricParams, response: { 200: MetricIdResult } } },
    async (request) => {
      const { embedId, metricId } = request.params
      return done((await service.resetOverride(claims(request), embedId, metricId)).metricId)
    },
  )
  app.post(
    '/:embedId/metrics/:metricId/keep-version',
    { schema: { ...docs.keepMetricVersion, params: MetricParams, response: { 200: MetricIdResult } } },
    async (request) => {
      const { embedId, metricId } = request.params
      return done((await service.keepVersion(claims(request), embedId, metricId)).metricId)
    },
  )
  app.post(
    '/:embedId/metrics/:metricId/publish',
    { schema: { ...docs.publishMetric, params: MetricParams, response: { 200: MetricIdResult } } },
    async (request) => {
      const { embedId, metricId } = request.params
      return done((await service.publish(claims(request), embedId, metricId)).metricId)
    },
  )
}

export default selfServeMetrics
