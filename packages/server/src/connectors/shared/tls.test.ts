import { describe, expect, it } from 'vitest'
import { isLoopbackHost, resolveTlsMode, silentTlsMode } from './tls.js'

describe('the TLS default of credentials that name no mode', () => {
  it('loopback hosts are localhost, 127.0.0.0/8 and ::1', () => {
    for (const host of [
      'localhost',
      'LOCALHOST',
      'db.localhost',
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
    ]) {
      expect(isLoopbackHost(host), host).toBe(true)
    }
    for (const host of [
      '192.0.2.2',
      '10.0.0.5',
      'db.internal',
      'localhost.example.com',
      '128.0.0.1',
      '::2',
      'fd00::1',
      '::ffff:10.0.0.1',
    ]) {
      expect(isLoopbackHost(host), host).toBe(false)
    }
  })

  it('verify unless loopback or a legacy row; explicit fields win', () => {
    expect(silentTlsMode('db.internal', undefined)).toBe('verify')
    expect(silentTlsMode('db.internal', 'verify')).toBe('verify')
    expect(silentTlsMode('db.internal', 'off')).toBe('off')
    expect(silentTlsMode('127.0.0.1', 'verify')).toBe('off')
    expect(resolveTlsMode({}, silentTlsMode('db.internal', 'verify'))).toBe('verify')
    expect(resolveTlsMode({ sslMode: false }, 'verify')).toBe('off')
    expect(resolveTlsMode({ tlsMode: 'required' }, 'off')).toBe('required')
    expect(resolveTlsMode({ tlsCaCertificate: 'x' }, 'off')).toBe('verify')
  })
})
