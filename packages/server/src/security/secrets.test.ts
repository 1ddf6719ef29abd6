import { describe, expect, it } from 'vitest'
import { hashPassword, hashSecret, passwordProblem, verifyPassword } from './secrets.js'

describe('secrets', () => {
  it('hashes passwords with scrypt, salted, and verifies them', async () => {
    const a = await hashPassword('Str0ng!Pass')
    const b = await hashPassword('Str0ng!Pass')
    expect(a).toMatch(/^scrypt\$/)
    expect(a).not.toBe(b)
    expect(a).not.toContain('Str0ng!Pass')
    expect(await verifyPassword('Str0ng!Pass', a)).toBe(true)
    expect(await verifyPassword('Str0ng!Pasz', a)).toBe(false)
    expect(await verifyPassword('Str0ng!Pass', 'garbage')).toBe(false)
  })

  it('hashes secrets deterministically for indexed lookup', () => {
    expect(hashSecret('abc')).toBe(hashSecret('abc'))
    expect(hashSecret('abc')).not.toBe(hashSecret('abd'))
  })

  it('applies the documented password rule', () => {
    expect(passwordProblem('Str0ng!Pass')).toBeUndefined()
    expect(passwordProblem('Sh0rt!')).toMatch(/8/)
    expect(passwordProblem('Str0ng Pass!')).toMatch(/spaces/)
  })
})
