import type fc from 'fast-check'

/**
 * The server's twin of packages/contract/test/property-runs.ts (a package's tests import only
 * from inside it): the same seed and the same rules, so a property test runs alike in both.
 * Under CI a run is repeatable, so a red build is the same failure on every retry, not a flake
 * that goes away.
 */
export const CI_PROPERTY_SEED = 20_261_129

/**
 * fast-check's run parameters for a property test: `numRuns` cases, from a fixed seed when `CI`
 * is set (CI_PROPERTY_SEED), from a fresh random one locally so new cases keep being tried.
 * `FC_SEED=<seed>` replays a seed printed by a failure. fast-check's failure message names the
 * seed and the path to the shrunk counterexample either way.
 */
export function propertyRuns<Ts>(
  numRuns: number,
  extra: Omit<fc.Parameters<Ts>, 'numRuns' | 'seed'> = {},
): fc.Parameters<Ts> {
  const given = process.env.FC_SEED
  if (given !== undefined && given !== '') {
    const seed = Number(given)
    if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer, got ${given}`)
    return { ...extra, numRuns, seed }
  }
  return process.env.CI ? { ...extra, numRuns, seed: CI_PROPERTY_SEED } : { ...extra, numRuns }
}
