import type { OperationError } from '../../schemas/openapi.js'

/** What every runtime operation's documentation says of its caller and its common refusals. */
export const browser =
  "For the web component in the browser: takes a guest token; a page on another origin must be in the data app's whitelist-domains (CORS)."

export const tokenOrEmbedGone: OperationError = [
  401,
  'AUTHENTICATION_ERROR',
  'The guest token is missing, invalid, expired or revoked, or the embed was deleted (then `details.reason` is `EMBED_GONE`: a new token will not help).',
]

export const outside: OperationError = [
  403,
  'UNAUTHORIZED',
  'The id is outside the allowedEmbeds of the token, or the origin is not whitelisted.',
]
