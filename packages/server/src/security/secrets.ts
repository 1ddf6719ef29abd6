import { createHash, randomBytes, randomUUID, scrypt, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>

/**
 * Hash of a high-entropy secret (API key, service token, refresh token, guest token).
 * These carry ≥128 bits of randomness, so a fast digest is the right tool: it lets the
 * store index the hash for O(1) lookup. Passwords use scrypt below.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url')
}

/** A random secret with a readable kind prefix, e.g. `sk_live_…`. */
export function newSecret(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`
}

export const newId = (): string => randomUUID()

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 64 }

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const { N, r, p, keylen } = SCRYPT
  const hash = await scryptAsync(password, salt, keylen, { N, r, p, maxmem: 64 * 1024 * 1024 })
  return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$')
  if (kind !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  })
  return timingSafeEqual(expected, actual)
}

/** The password rule (docs/administration.md#1-the-admin-account): ≥ 8 chars, upper, lower, digit, special, no spaces. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < 8) return 'Password must be at least 8 characters long'
  if (/\s/.test(password)) return 'Password must not contain spaces'
  if (!/[A-Z]/.test(password)) return 'Password must contain an uppercase letter'
  if (!/[a-z]/.test(password)) return 'Password must contain a lowercase letter'
  if (!/[0-9]/.test(password)) return 'Password must contain a digit'
  if (!/[^A-Za-z0-9]/.test(password)) return 'Password must contain a special character'
  return undefined
}
