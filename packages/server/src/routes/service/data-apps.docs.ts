import { operations, SERVICE_TOKEN } from '../../schemas/openapi.js'

const rename =
  '`{ name, updateName }`: the data app `name` is called `updateName` from now on (letters and digits, unique in the organization). Its API keys, embeds and the guest tokens already minted refer to it by id and keep working; the next request with one of its keys sees the new name (a v2 guest token then names it as `dataAppName`).'
const renameErrors = [
  [400, 'DATA_APP_NOT_FOUND', 'No data app of the organization is called `name`.'],
  [400, 'DATA_APP_ALREADY_EXISTS', 'Another data app of the organization is called `updateName`.'],
] as const

/** Data apps and their API keys; service token. */
export const docs = operations('data apps', {
  createDataApp: {
    summary: 'Create a data app and its first API key',
    description:
      'Creates a data app (an alphanumeric name, unique in the organization) and its first data app API key. The key is shown only in this answer: keep it on your backend, never in a page. Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: [[400, 'DATA_APP_ALREADY_EXISTS']],
    returns: 'The data app name and its API key (shown once).',
  },
  renameDataApp: {
    summary: 'Rename a data app',
    description: `${rename} Takes the service token; a bad one answers 400 \`AUTHENTICATION_ERROR\`, as the hosted API has it for this path.`,
    auth: SERVICE_TOKEN,
    errors: renameErrors,
    returns: 'The new name.',
  },
  renameDataAppLegacy: {
    summary: 'Rename a data app (legacy path)',
    description: `The older path of \`PUT /api/v2/data-app\`, the same body and answer. ${rename}`,
    auth: SERVICE_TOKEN,
    errors: renameErrors,
    returns: 'The new name.',
    deprecated: true,
  },
  listDataApps: {
    summary: 'List the data apps with their embeds',
    description: 'Every data app of the organization with its embeds (names and ids). Takes the service token.',
    auth: SERVICE_TOKEN,
  },
  createApiToken: {
    summary: 'Create another API key for a data app',
    description:
      'Adds a data app API key (for rotation or per backend); the secret is shown only in this answer. Takes the service token; a bad one answers 400 `AUTHENTICATION_ERROR`, as the hosted API has it for this path.',
    auth: SERVICE_TOKEN,
    errors: [[400, 'DATA_APP_NOT_FOUND']],
    returns: 'The new API key (shown once).',
  },
  listApiTokens: {
    summary: 'List the API keys of a data app (identifiers, never secrets)',
    description:
      'The active keys of a data app: identifier, name, description and creation time; pages of 10 with `isPagination=true`. Takes the service token (a bad one: 400 `AUTHENTICATION_ERROR`).',
    auth: SERVICE_TOKEN,
    errors: [[400, 'DATA_APP_NOT_FOUND']],
  },
  revokeApiToken: {
    summary: 'Revoke an API key at once',
    description:
      'Revokes one key of a data app, on every instance at once: requests and guest tokens minted with it stop working. Takes the service token (a bad one: 400 `AUTHENTICATION_ERROR`).',
    auth: SERVICE_TOKEN,
    errors: [
      [400, 'DATA_APP_NOT_FOUND'],
      [400, 'INVALID_REQUEST_BODY', 'Also when the data app has no active key with that identifier.'],
    ],
    returns: 'The identifier of the revoked key.',
  },
})
