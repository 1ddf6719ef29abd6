import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  CreatedViewResponse,
  CreateViewBody,
  DeletedViewResponse,
  LayoutResponse,
  PutLayoutBody,
  ViewsResponse,
} from '@strata/contract/self-serve'
import { principalOf, requireGuestToken } from '../../auth/hooks.js'
import { EmbedParams, ViewParams } from './params.js'
import { docs } from './self-serve-layout.docs.js'
import { refuseStudioWrites } from './studio-writes.js'

/** The end user's layout and views (docs/runtime-api.md#the-end-users-layout), guest token only; the prefix is the runtime's. */
const selfServeLayout: FastifyPluginAsyncTypebox = async (app) => {
  const { layouts, views } = app.services
  requireGuestToken(app)
  refuseStudioWrites(app)
  const claims = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'guest').claims

  app.put(
    '/:embedId/layout',
    { schema: { ...docs.putLayout, params: EmbedParams, body: PutLayoutBody, response: { 200: LayoutResponse } } },
    async (request) => ({
      data: { layout: await layouts.put(claims(request), request.params.embedId, request.body.layout) },
      error: null,
    }),
  )
  app.delete(
    '/:embedId/layout',
    { schema: { ...docs.resetLayout, params: EmbedParams, response: { 200: LayoutResponse } } },
    async (request) => ({
      data: { layout: await layouts.reset(claims(request), request.params.embedId) },
      error: null,
    }),
  )
  app.get(
    '/:embedId/views',
    { schema: { ...docs.listViews, params: EmbedParams, response: { 200: ViewsResponse } } },
    async (request) => ({ data: await views.list(claims(request), request.params.embedId) }),
  )
  app.post(
    '/:embedId/views',
    {
      schema: { ...docs.createView, params: EmbedParams, body: CreateViewBody, response: { 200: CreatedViewResponse } },
    },
    async (request) => ({ data: await views.create(claims(request), request.params.embedId, request.body) }),
  )
  app.delete(
    '/:embedId/views/:viewId',
    { schema: { ...docs.deleteView, params: ViewParams, response: { 200: DeletedViewResponse } } },
    async (request) => ({
      data: await views.remove(claims(request), request.params.embedId, request.params.viewId),
      error: null,
    }),
  )
}

export default selfServeLayout
