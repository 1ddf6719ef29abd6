import { afterEach, describe, expect, it, vi } from 'vitest'
import { CI_PROPERTY_SEED, propertyRuns } from './property-runs.js'

describe('propertyRuns (the seed of the server property tests)', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('under CI: the fixed seed, so every run of a build tries the same cases', () => {
    vi.stubEnv('CI', 'true')
    vi.stubEnv('FC_SEED', '')
    expect(propertyRuns(50)).toEqual({ numRuns: 50, seed: CI_PROPERTY_SEED })
    expect(propertyRuns(5, { endOnFailure: true })).toEqual({ numRuns: 5, seed: CI_PROPERTY_SEED, endOnFailure: true })
  })

  it('FC_SEED replays a seed, under CI or not; a seed that is not an integer is refused', () => {
    vi.stubEnv('CI', 'true')
    vi.stubEnv('FC_SEED', '-1234')
    expect(propertyRuns(50)).toEqual({ numRuns: 50, seed: -1234 })
    vi.stubEnv('FC_SEED', '12.5')
    expect(() => propertyRuns(50)).toThrow(/FC_SEED must be an integer/)
  })

  it('locally: no seed, so fast-check draws a new one each run', () => {
    vi.stubEnv('CI', '')
    vi.stubEnv('FC_SEED', '')
    expect(propertyRuns(50)).toEqual({ numRuns: 50 })
  })
})
