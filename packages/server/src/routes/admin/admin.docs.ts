import { ADMIN_TOKEN, operations } from '../../schemas/openapi.js'

const alsoWeakPassword =
  'Also when the password breaks the rule: 8+ characters with an upper and a lower case letter, a digit and a special character, no spaces.'

/** Admin bootstrap and sign-in (no token), and the routes of the admin access token. */
export const docs = operations('administration', {
  adminAccountStatus: {
    summary: 'Whether the admin account exists',
    description:
      '`created: false` on a fresh server, where `POST /api/v2/admin-account` creates the account; `true` once it exists (sign in). The studio reads it to offer the right form. No token.',
  },
  createAdminAccount: {
    summary: 'Create the admin account (only while none exists)',
    description:
      'Bootstraps a self-hosted instance: creates the one admin account and its organization, and answers an admin access token (JWT). No token. Refused once the account exists. Self-hosted only; rate limited with the auth group (AUTH_ROUTE_RATE_LIMIT).',
    errors: [
      [400, 'INVALID_REQUEST_BODY', alsoWeakPassword],
      [400, 'INVALID_REQUEST'],
    ],
    returns: 'The admin access token.',
  },
  createAdminJwt: {
    summary: 'Sign in: create an admin access token and a refresh token',
    description:
      'Signs the admin in with email (case-insensitive) and password. Answers an access token (JWT, for the administration routes), its lifetime in seconds, and a single-use refresh token. No token; rate limited with the auth group.',
    errors: [
      [400, 'USER_NOT_FOUND'],
      [400, 'INVALID_CREDENTIALS'],
    ],
  },
  refreshAdminJwt: {
    summary: 'Refresh the admin access token (the refresh token is single-use)',
    description:
      'Trades a refresh token for a new access token and a new refresh token; the one sent stops working. No bearer token: the refresh token is in the body. Rate limited with the refresh group (REFRESH_ROUTE_RATE_LIMIT).',
    errors: [[401, 'AUTHENTICATION_ERROR', 'The refresh token is invalid, expired or already used.']],
  },
  createServiceToken: {
    summary: 'Create the service token (replaces the current one at once)',
    description:
      'Issues the organization service token, the bearer of the datasource, datamart, workspace, data app and dashboard routes. The previous one stops working at once (use rotate for a grace period). `token` may be a GUID of your choosing; one is generated otherwise. Takes the admin access token.',
    auth: ADMIN_TOKEN,
    errors: [[400, 'INVALID_REQUEST_BODY', 'Also when the token value is already in use.']],
    returns: 'The new service token (`key`).',
  },
  rotateServiceToken: {
    summary: 'Rotate the service token with a grace period for the old one',
    description:
      'Issues a new service token; the current one keeps working for `expireAt` more seconds (0 revokes it now, at most 30 days). Takes the admin access token.',
    auth: ADMIN_TOKEN,
    errors: [[400, 'INVALID_REQUEST_BODY', 'Also when the token value is already in use.']],
    returns: 'The new service token (`key`).',
  },
  resetAdminPassword: {
    summary: 'Change the admin password (self-hosted only)',
    description:
      'Checks `currentPassword` and sets `password`. Takes the admin access token. Self-hosted only; rate limited with the auth group.',
    auth: ADMIN_TOKEN,
    errors: [[400, 'RESET_PASSWORD_ERROR']],
  },
})
