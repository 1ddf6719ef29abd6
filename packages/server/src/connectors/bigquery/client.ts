/**
 * The SDK client of one datasource: @google-cloud/bigquery with a service-account JWT client
 * (google-auth-library, the SDK's own auth library) built from `credentials_json`.
 *
 * - `apiEndpoint` replaces https://bigquery.googleapis.com (the SDK's `apiEndpoint` option).
 * - The key file's `token_uri` is honoured: google-auth-library 10 always posts the signed JWT to
 *   https://oauth2.googleapis.com/token, so a request interceptor sends it to the key's
 *   `token_uri` when that differs (a private OAuth endpoint, or a test stand-in).
 * - No retries (the SDK retries 3 times by default, the token request too): every call of ours
 *   has a deadline, and an unreachable endpoint must fail within the connect timeout.
 */
import { BigQuery } from '@google-cloud/bigquery'
import { JWT } from 'google-auth-library'
import { connectionError } from '../errors.js'
import type { BigqueryCredentials } from '../types.js'

const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token'
const SCOPES = ['https://www.googleapis.com/auth/bigquery']

/** The fields of a service account key file that we use. */
export interface ServiceAccountKey {
  readonly client_email: string
  readonly private_key: string
  readonly private_key_id?: string
  readonly token_uri?: string
}

/** Parses the key; a key that cannot authenticate is a connection error naming the field. */
export function parseKey(credentialsJson: string): ServiceAccountKey {
  let key: unknown
  try {
    key = JSON.parse(credentialsJson)
  } catch {
    throw connectionError('credentials_json is not a JSON service account key')
  }
  const k = key as Partial<Record<keyof ServiceAccountKey, unknown>>
  for (const field of ['client_email', 'private_key'] as const) {
    if (typeof k[field] !== 'string' || k[field] === '') {
      throw connectionError(`the service account key has no ${field}`)
    }
  }
  return key as ServiceAccountKey
}

export function createClient(credentials: BigqueryCredentials, key: ServiceAccountKey): BigQuery {
  const auth = new JWT({
    email: key.client_email,
    key: key.private_key,
    ...(key.private_key_id ? { keyId: key.private_key_id } : {}),
    scopes: SCOPES,
  })
  const tokenUri = key.token_uri
  auth.transporter.interceptors.request.add({
    resolved: async (options) => {
      if (tokenUri && tokenUri !== GOOGLE_TOKEN_URL && String(options.url) === GOOGLE_TOKEN_URL) {
        options.url = new URL(tokenUri)
      }
      options.retryConfig = { ...options.retryConfig, retry: 0, noResponseRetries: 0 }
      return options
    },
  })
  return new BigQuery({
    projectId: credentials.project_id,
    location: credentials.dataset_location,
    authClient: auth,
    ...(credentials.apiEndpoint ? { apiEndpoint: credentials.apiEndpoint } : {}),
    retryOptions: { autoRetry: false, maxRetries: 0 },
  })
}
