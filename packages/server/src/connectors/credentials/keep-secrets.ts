/**
 * Update of a datasource without re-typing its secrets: a secret field the new credentials
 * omit keeps its stored value. Only while the connection still goes where it went: when a
 * host, URL or port field changed, a stored secret is never sent to the new place (someone
 * holding the token could otherwise point the datasource at their own server and read the
 * password there), and the update must carry the secret again.
 */
import { badRequest } from '../../errors.js'
import type { DatasourceType } from '../types.js'
import { describeFields, fieldMeta } from './fields.js'
import { credentialSchema } from './schemas.js'

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** `null` counts as absent, as in validation. */
const fieldValue = (credentials: Record<string, unknown>, field: string): unknown => credentials[field] ?? undefined

/**
 * The update's credentials with each omitted secret filled from `stored` (a `null` secret stays
 * removed). Refused, naming the secret and the changed field, when an endpoint field changed.
 */
export function keepStoredSecrets(
  type: DatasourceType,
  update: unknown,
  stored: Readonly<Record<string, unknown>>,
): unknown {
  if (!isObject(update)) return update
  const fields = describeFields(credentialSchema(type))
  const kept = fields.filter(
    (f) => fieldMeta(f.schema).secret === true && !Object.hasOwn(update, f.name) && stored[f.name] !== undefined,
  )
  if (kept.length === 0) return update
  const moved = fields.find(
    (f) => fieldMeta(f.schema).endpoint === true && fieldValue(update, f.name) !== fieldValue(stored, f.name),
  )
  const first = kept[0]
  if (moved && first) {
    throw badRequest(
      `credentials.${first.name} is required when credentials.${moved.name} changes: a stored secret is only reused for the server it was given for`,
      {
        field: `credentials.${first.name}`,
        fields: [{ in: 'body', path: `credentials.${first.name}`, problem: `is required when ${moved.name} changes` }],
      },
    )
  }
  const out: Record<string, unknown> = { ...update }
  for (const f of kept) out[f.name] = stored[f.name]
  return out
}

/** The secret fields holding a stored value (the names only: what the edit form says is kept). */
export function storedSecretNames(type: DatasourceType, stored: Readonly<Record<string, unknown>>): string[] {
  return describeFields(credentialSchema(type))
    .filter((f) => fieldMeta(f.schema).secret === true && stored[f.name] !== undefined)
    .map((f) => f.name)
}
