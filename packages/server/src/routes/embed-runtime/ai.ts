import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  AiMetricBody,
  AiMetricResponse,
  AiSuggestionsResponse,
  AiSummaryBody,
  AiSummaryResponse,
} from '@strata/contract/ai'
import { principalOf } from '../../auth/hooks.js'
import { docs } from './ai.docs.js'
import { EmbedParams } from './params.js'

/**
 * The AI pilot (docs/runtime-api.md#ai-pilot), registered inside the runtime's guest-token context
 * (runtime.ts): each route a schema and one service call.
 */
const ai: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.aiPilot
  const claims = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'guest').claims

  app.post(
    '/:embedId/ai/metric',
    { schema: { ...docs.aiMetric, params: EmbedParams, body: AiMetricBody, response: { 200: AiMetricResponse } } },
    async (request) => ({
      data: await service.metric(claims(request), request.params.embedId, request.body.question),
    }),
  )
  app.post(
    '/:embedId/ai/summary',
    { schema: { ...docs.aiSummary, params: EmbedParams, body: AiSummaryBody, response: { 200: AiSummaryResponse } } },
    async (request) => ({ data: await service.summary(claims(request), request.params.embedId, request.body) }),
  )
  app.get(
    '/:embedId/ai/suggestions',
    { schema: { ...docs.aiSuggestions, params: EmbedParams, response: { 200: AiSuggestionsResponse } } },
    async (request) => ({ data: await service.suggestions(claims(request), request.params.embedId) }),
  )
}

export default ai
