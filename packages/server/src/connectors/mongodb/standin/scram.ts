/**
 * The server side of SCRAM-SHA-256 (RFC 5802 / RFC 7677) as MongoDB runs it through
 * `saslStart` / `saslContinue`: the client's proof is verified against the stored key derived
 * from the real password, and the server signature is returned for the client to verify.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto'

const ITERATIONS = 4096

export interface Credential {
  readonly salt: Buffer
  readonly storedKey: Buffer
  readonly serverKey: Buffer
}

const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest()
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest()

/** What the server keeps of a password (never the password itself). */
export function credentialOf(password: string): Credential {
  const salt = randomBytes(16)
  const salted = pbkdf2Sync(password, salt, ITERATIONS, 32, 'sha256')
  return { salt, storedKey: sha256(hmac(salted, 'Client Key')), serverKey: hmac(salted, 'Server Key') }
}

function attributes(message: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const part of message.split(',')) {
    const eq = part.indexOf('=')
    if (eq > 0) out.set(part.slice(0, eq), part.slice(eq + 1))
  }
  return out
}

/** One conversation: `start` answers the client-first message, `finish` checks the proof. */
export class ScramConversation {
  #clientFirstBare = ''
  #serverFirst = ''
  #nonce = ''
  user = ''

  constructor(private readonly lookup: (user: string) => Credential | undefined) {}

  start(clientFirst: string): string {
    // "n,,n=user,r=nonce": the GS2 header, then the bare message
    this.#clientFirstBare = clientFirst.replace(/^[nyp][^,]*,[^,]*,/, '')
    const attrs = attributes(this.#clientFirstBare)
    this.user = (attrs.get('n') ?? '').replaceAll('=2C', ',').replaceAll('=3D', '=')
    const credential = this.lookup(this.user) ?? credentialOf(randomBytes(16).toString('hex'))
    this.#nonce = `${attrs.get('r') ?? ''}${randomBytes(18).toString('base64')}`
    this.#serverFirst = `r=${this.#nonce},s=${credential.salt.toString('base64')},i=${ITERATIONS}`
    return this.#serverFirst
  }

  /** The server-final message, or undefined when the proof is wrong (or the user unknown). */
  finish(clientFinal: string): string | undefined {
    const credential = this.lookup(this.user)
    const attrs = attributes(clientFinal)
    const proof = Buffer.from(attrs.get('p') ?? '', 'base64')
    if (credential === undefined || attrs.get('r') !== this.#nonce || proof.length !== 32) return undefined
    const withoutProof = clientFinal.slice(0, clientFinal.lastIndexOf(',p='))
    const authMessage = `${this.#clientFirstBare},${this.#serverFirst},${withoutProof}`
    const signature = hmac(credential.storedKey, authMessage)
    const clientKey = Buffer.from(proof.map((b, i) => b ^ (signature[i] as number)))
    if (!timingSafeEqual(sha256(clientKey), credential.storedKey)) return undefined
    return `v=${hmac(credential.serverKey, authMessage).toString('base64')}`
  }
}
