/**
 * The conditional rules of the credentials table, read from the registry: each type's rule is
 * declared in its folder (`credentials.ts`, its registry row's `rules`), the shared ones in
 * rule-builders.ts. Each rule is documented by its `doc` lines, which docs/datasources.md renders
 * under the type's field table.
 */
import { REGISTRY } from '../registry.js'
import type { DatasourceType } from '../types.js'
import type { Violation } from './rule-builders.js'
import type { CredentialsByType } from './schemas.js'

export type { Violation } from './rule-builders.js'

/** The doc lines of the type's conditional rule (none: no rule). */
export function ruleDocs(type: DatasourceType): readonly string[] {
  return REGISTRY[type].rules?.doc ?? []
}

/** Runs the type's conditional rule, if it has one. */
export function checkRules<T extends DatasourceType>(
  type: T,
  credentials: CredentialsByType[T],
): Violation | undefined {
  return REGISTRY[type].rules?.check(credentials)
}
