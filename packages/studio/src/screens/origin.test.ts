import { describe, expect, it } from 'vitest'
import { originProblem } from './origin.js'

describe('an allowed origin as the studio checks it', () => {
  it('takes a host, a host with a port, and a wildcard subdomain', () => {
    for (const ok of ['app.example.com', 'localhost:3000', '*.customer.com', '127.0.0.1:8080']) {
      expect(originProblem(ok), ok).toBe('')
    }
  })
  it('names the fix for a scheme, a path, a blank and a non-host', () => {
    expect(originProblem('https://app.example.com/x')).toBe(
      'Leave out the scheme: type app.example.com without http:// or https://.',
    )
    expect(originProblem('app.example.com/dashboards')).toBe('An origin has no path: type app.example.com only.')
    expect(originProblem('  ')).toMatch(/^Type an origin/)
    expect(originProblem('app example.com')).toMatch(/not a host name/)
    expect(originProblem('-app.example.com')).toMatch(/not a host name/)
  })
})
