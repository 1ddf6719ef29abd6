import type fc from 'fast-check'

/**
 * The seed of the property tests under CI: a run there is repeatable, so a red build is the same
 * failure on every retry, not a flake that goes away.
 */
export const CI_PROPERTY_SEED = 20_261_129

/**
 * fast-check's run parameters for a property test: `numRuns` cases, from a fixed seed when `CI`
 * is set (CI_PROPERTY_SEED), from a fresh random one locally so new cases keep being tried.
 * `FC_SEED=<seed>` replays a seed printed by a failure. fast-check's failure message names the
 * seed and the path to the shrunk counterexample either way.
 */
export function propertyRuns<Ts>(numRuns: number): fc.Parameters<Ts> {
  const given = process.env.FC_SEED
  if (given !== undefined && given !== '') {
    const seed = Number(given)
    if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer, got ${given}`)
    return { numRuns, seed }
  }
  return process.env.CI ? { numRuns, seed: CI_PROPERTY_SEED } : { numRuns }
}
