import { describe, expect, it } from 'vitest'
import { originAllowed } from './origins.js'

describe('originAllowed', () => {
  const entries = ['app.example.com', '*.customer.com', 'localhost:3000']

  it('admits a listed host on any scheme and port unless the entry names a port', () => {
    expect(originAllowed(entries, 'https://app.example.com')).toBe(true)
    expect(originAllowed(entries, 'http://APP.example.com:8443')).toBe(true)
    expect(originAllowed(entries, 'http://localhost:3000')).toBe(true)
    expect(originAllowed(entries, 'http://localhost:3001')).toBe(false)
    expect(originAllowed(entries, 'http://localhost')).toBe(false)
  })

  it('matches *.host on subdomains only, never on look-alikes', () => {
    expect(originAllowed(entries, 'https://x.customer.com')).toBe(true)
    expect(originAllowed(entries, 'https://a.b.customer.com')).toBe(true)
    expect(originAllowed(entries, 'https://customer.com')).toBe(false)
    expect(originAllowed(entries, 'https://evilcustomer.com')).toBe(false)
    expect(originAllowed(entries, 'https://app.example.com.evil.org')).toBe(false)
  })

  it('refuses what is not an origin', () => {
    expect(originAllowed(entries, 'null')).toBe(false)
    expect(originAllowed(entries, '')).toBe(false)
    expect(originAllowed([], 'https://app.example.com')).toBe(false)
  })
})
