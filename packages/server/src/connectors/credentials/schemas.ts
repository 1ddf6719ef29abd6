/**
 * Each type's credentials schema, as the registry holds it (docs/datasources.md#field-reference).
 * The schemas themselves are in the types' folders (`connectors/<folder>/credentials.ts`); the
 * schema is the single source of truth: structural validation, docs/datasources.md and the
 * secret fields. Rules the table states in words (sshTunnel, snowflake's service, the search
 * engines' server_type …) are in rules.ts.
 */
import { type CredentialSchemas, REGISTRY } from '../registry.js'
import type { DatasourceType } from '../types.js'

export type { CredentialSchemas, CredentialsByType } from '../registry.js'

/** The TypeBox schema the API validates a `type`'s credentials with. */
export function credentialSchema<T extends DatasourceType>(type: T): CredentialSchemas[T] {
  return REGISTRY[type].credentials
}
