import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { missingTokenMessage, rejectedTokenMessage, tokenForm } from './token-kinds.js'

describe('token kinds', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl'

  it('recognises a token by its form, or not at all', () => {
    expect(tokenForm('sk_0a1b2c3d4e5f_secret')).toBe('dataApp')
    expect(tokenForm('gt_1.sealed')).toBe('guest')
    expect(tokenForm('gt_opaque')).toBe('guest')
    expect(tokenForm('rt_refresh')).toBe('refresh')
    expect(tokenForm(jwt)).toBe('admin')
    expect(tokenForm(randomUUID())).toBe('service')
    expect(tokenForm('my-chosen-service-token')).toBeUndefined()
  })

  it('says which kind a route takes and which was sent, never the token', () => {
    const key = 'sk_0a1b2c3d4e5f_s3cr3t'
    const message = rejectedTokenMessage('service', key, 'invalid')
    expect(message).toMatch(/^This route takes the organization service token .*; a data app API key was sent/)
    expect(message).not.toContain(key)
    expect(message).not.toContain('s3cr3t')
    expect(rejectedTokenMessage('dataApp', 'gt_1.x', 'invalid')).toMatch(
      /^This route takes a data app API key .*; a guest token was sent/,
    )
    expect(rejectedTokenMessage('guest', key, 'invalid')).toMatch(/^This route takes a guest token .*; a data app/)
    expect(rejectedTokenMessage('dataApp', jwt, 'invalid')).toMatch(/an admin access token was sent/)
  })

  it('an admin access token that fails on an organization route has expired: refresh or sign in', () => {
    // the organization (service-token) routes take the admin's access token too
    expect(rejectedTokenMessage('service', jwt, 'invalid')).toMatch(/^The admin access token is invalid or expired/)
    expect(missingTokenMessage('service')).toMatch(/or the admin access token/)
  })

  it('keeps the plain message for a token of the right kind, or of no recognisable kind', () => {
    expect(rejectedTokenMessage('dataApp', 'sk_revoked', 'The data app API key is invalid')).toBe(
      'The data app API key is invalid',
    )
    expect(rejectedTokenMessage('service', 'whatever', 'The service token is invalid')).toBe(
      'The service token is invalid',
    )
    expect(missingTokenMessage('guest')).toMatch(/^Missing credentials: this route takes a guest token/)
  })
})
