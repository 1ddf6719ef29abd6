import { DATA_APP_KEY, operations } from '../../schemas/openapi.js'

/** Guest token minting; data app key. */
export const docs = operations('guest tokens', {
  createGuestToken: {
    summary: 'Mint a guest token for one end user',
    description:
      'Called by your backend for each end user: returns an opaque token (claims stay server-side) that the web component sends to the embed runtime. `clientId` selects the tenant (row-level security, tenancy); `params` carry RLS values, filters fixed by the app, `allowedEmbeds`, the time zone; `permissions` narrow what the embed allows (a flag left out inherits the embed’s setting; download is off unless `isEnableDownloadMetrics` is `true`; the rule per capability: docs/guest-tokens.md). Every id is checked against this data app. The body is strict: an undeclared field is a 400. Takes the data app API key (a bad one: 401 `AUTHENTICATION_ERROR`, as the hosted API has it).',
    auth: { ...DATA_APP_KEY, failure: { code: 'AUTHENTICATION_ERROR', status: 401 } },
    errors: [
      [
        400,
        'INVALID_REQUEST_BODY',
        'Also when dataAppName is not the data app of the key, timezone is not an IANA zone, or an embed, dashboard or metric id is not in this data app.',
      ],
    ],
    returns: 'The guest token.',
  },
})
