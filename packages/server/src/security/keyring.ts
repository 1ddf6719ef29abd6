import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, type KeyObject, randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError } from '../config.js'

const KEY_FILE = 'encryption.key'
const VERSION = 'v1'

/**
 * The server's master key and what is derived from it: AES-256-GCM for credentials at rest,
 * AES-256-GCM for sealed guest tokens, and the HMAC key that signs admin access tokens. The
 * master key comes from ENCRYPTION_KEY (64 hex chars or 32 bytes base64) or is generated once
 * into DATA_DIR (mode 0600).
 */
export class Keyring {
  private readonly dataKey: KeyObject
  private readonly tokenKey: KeyObject
  readonly jwtKey: Uint8Array

  constructor(master: Buffer) {
    if (master.length !== 32) throw new ConfigError('The encryption key must be 32 bytes')
    const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), purpose, 32))
    this.dataKey = createSecretKey(derive('strata/credentials'))
    this.tokenKey = createSecretKey(derive('strata/guest-token'))
    this.jwtKey = new Uint8Array(derive('strata/admin-jwt'))
  }

  /** Seals a guest token's claims (confidential and tamper-proof), as base64url. */
  sealToken(plaintext: string): string {
    return seal(this.tokenKey, this.nextTokenIv(), plaintext).toString('base64url')
  }

  /** The plaintext of a sealed token, or undefined when it was not sealed by this key or was altered. */
  openToken(sealed: string): string | undefined {
    try {
      return unseal(this.tokenKey, Buffer.from(sealed, 'base64url'))
    } catch {
      return undefined
    }
  }

  /** Random 96-bit IVs, drawn 256 at a time (one randomBytes call per IV costs more than the sealing). */
  private ivs = Buffer.alloc(0)
  private nextTokenIv(): Buffer {
    if (this.ivs.length < 12) this.ivs = randomBytes(12 * 256)
    const iv = this.ivs.subarray(0, 12)
    this.ivs = this.ivs.subarray(12)
    return iv
  }

  /** Encrypts a UTF-8 string; `context` (e.g. a datasource id) is bound as associated data. */
  encrypt(plaintext: string, context = ''): string {
    return `${VERSION}:${seal(this.dataKey, randomBytes(12), plaintext, context).toString('base64')}`
  }

  decrypt(sealed: string, context = ''): string {
    const [version, payload] = sealed.split(':')
    if (version !== VERSION || payload === undefined) throw new Error('Unknown ciphertext format')
    return unseal(this.dataKey, Buffer.from(payload, 'base64'), context)
  }
}

/** AES-256-GCM: `iv (12) | tag (16) | ciphertext`, with `aad` bound as associated data when given. */
function seal(key: KeyObject, iv: Buffer, plaintext: string, aad?: string): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  if (aad !== undefined) cipher.setAAD(Buffer.from(aad, 'utf8'))
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body])
}

/** The plaintext of `seal`'s output; throws when the key, the data or the associated data differ. */
function unseal(key: KeyObject, raw: Buffer, aad?: string): string {
  if (raw.length < 28) throw new Error('The ciphertext is too short')
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
  if (aad !== undefined) decipher.setAAD(Buffer.from(aad, 'utf8'))
  decipher.setAuthTag(raw.subarray(12, 28))
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
}

export function parseMasterKey(value: string): Buffer {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex')
  const decoded = Buffer.from(value, 'base64')
  if (decoded.length === 32) return decoded
  throw new ConfigError('ENCRYPTION_KEY must be 32 bytes: 64 hex characters or 44 base64 characters')
}

/** Loads ENCRYPTION_KEY, else DATA_DIR/encryption.key, generating that file on first use. */
export function loadKeyring(encryptionKey: string | undefined, dataDir: string): Keyring {
  if (encryptionKey !== undefined) return new Keyring(parseMasterKey(encryptionKey))
  const path = join(dataDir, KEY_FILE)
  let stored: string | undefined
  try {
    stored = readFileSync(path, 'utf8').trim()
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  if (stored !== undefined) return new Keyring(parseMasterKey(stored))
  mkdirSync(dataDir, { recursive: true })
  const key = randomBytes(32).toString('hex')
  // 'wx' fails if another process created the file meanwhile; then read theirs.
  try {
    writeFileSync(path, `${key}\n`, { flag: 'wx', mode: 0o600 })
    chmodSync(path, 0o600)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    return new Keyring(parseMasterKey(readFileSync(path, 'utf8').trim()))
  }
  return new Keyring(Buffer.from(key, 'hex'))
}
