import { type Static, Type } from '@fastify/type-provider-typebox'
import { GuestTokenBody, GuestTokenParams } from './guest-tokens.js'

const { dataAppName, clientId, permissions } = GuestTokenBody.properties
const Name = Type.String({ minLength: 1, maxLength: 500 })

/** The studio's preview token: a dashboard of a workspace, for a tenant, as a data app's token would be. */
export const PreviewTokenBody = Type.Object(
  {
    dataAppName,
    workspaceName: Name,
    dashboardId: Name,
    clientId,
    rlsSettings: GuestTokenParams.properties.rlsSettings,
    permissions,
    author: Type.Optional(
      Type.Boolean({
        description:
          'true: the builder and the layout editor over the company’s document (the studio saves what is built there with PUT /api/v2/data-app/dashboard); false (default): the dashboard as the tenant’s end users see it',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        dataAppName: 'salesapp',
        workspaceName: 'main',
        dashboardId: 'sales-overview',
        clientId: 'acme',
        rlsSettings: [{ metricId: 'revenue', values: { region: ['EMEA'] } }],
      },
    ],
  },
)
export type PreviewTokenRequest = Static<typeof PreviewTokenBody>

export const PreviewTokenResponse = Type.Object({
  data: Type.Object({
    token: Type.String(),
    embedId: Type.String({ description: 'What the element loads: the dashboard’s id' }),
    expiresAt: Type.String({
      description: 'ISO 8601: the token stops working then (15 minutes, or STUDIO_PREVIEW_TTL_S seconds)',
    }),
  }),
})
