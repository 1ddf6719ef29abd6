import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../config.js'
import { loadKeyring } from './keyring.js'

const tempDir = () => mkdtempSync(join(tmpdir(), 'strata-key-'))
const HEX_KEY = 'a'.repeat(64)

describe('keyring', () => {
  it('round-trips AES-256-GCM with a fresh IV each time', () => {
    const keyring = loadKeyring(HEX_KEY, tempDir())
    const a = keyring.encrypt('p4ssw0rd', 'ds-1')
    const b = keyring.encrypt('p4ssw0rd', 'ds-1')
    expect(a).not.toBe(b)
    expect(a).not.toContain('p4ssw0rd')
    expect(keyring.decrypt(a, 'ds-1')).toBe('p4ssw0rd')
  })

  it('detects tampering and a wrong context or key', () => {
    const keyring = loadKeyring(HEX_KEY, tempDir())
    const sealed = keyring.encrypt('secret', 'ds-1')
    expect(() => keyring.decrypt(sealed, 'ds-2')).toThrow()
    const raw = Buffer.from(sealed.slice(3), 'base64')
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1
    expect(() => keyring.decrypt(`v1:${raw.toString('base64')}`, 'ds-1')).toThrow()
    expect(() => loadKeyring('b'.repeat(64), tempDir()).decrypt(sealed, 'ds-1')).toThrow()
  })

  it('seals tokens with their own key: opaque, tamper-evident, unreadable by another key', () => {
    const keyring = loadKeyring(HEX_KEY, tempDir())
    const sealed = keyring.sealToken('{"clientId":"acme"}')
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('acme')
    expect(keyring.openToken(sealed)).toBe('{"clientId":"acme"}')
    const raw = Buffer.from(sealed, 'base64url')
    for (const at of [0, 12, 28, raw.length - 1]) {
      const bent = Buffer.from(raw)
      bent[at] = (bent[at] ?? 0) ^ 1
      expect(keyring.openToken(bent.toString('base64url'))).toBeUndefined()
    }
    expect(keyring.openToken(sealed.slice(0, 30))).toBeUndefined()
    expect(keyring.openToken('')).toBeUndefined()
    expect(loadKeyring('b'.repeat(64), tempDir()).openToken(sealed)).toBeUndefined()
    // the credentials key is a different key
    expect(() => keyring.decrypt(`v1:${raw.toString('base64')}`)).toThrow()
  })

  it('generates a key into DATA_DIR once (mode 0600) and reuses it', () => {
    const dir = tempDir()
    const first = loadKeyring(undefined, dir)
    const file = join(dir, 'encryption.key')
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const second = loadKeyring(undefined, dir)
    expect(second.decrypt(first.encrypt('x'))).toBe('x')
  })

  it('accepts a base64 key and rejects a malformed one', () => {
    expect(() => loadKeyring(Buffer.alloc(32, 7).toString('base64'), tempDir())).not.toThrow()
    expect(() => loadKeyring('short', tempDir())).toThrow(ConfigError)
  })
})
