/**
 * Encryption that cannot be talked down. tedious asks for encryption in its PRELOGIN and then
 * does what the server's answer says: to a server that answers ENCRYPT_NOT_SUP (it has no
 * certificate) or ENCRYPT_OFF, it sends the LOGIN7 — the password — in clear text, whatever
 * `encrypt` says. A server without TLS, or anything on the path that rewrites one byte of that
 * answer, would read the password. So when TLS is on, the connector opens the socket itself
 * (tedious's `connector` option) and reads the server's PRELOGIN answer before tedious does: an
 * answer that does not turn encryption on (ENCRYPT_ON or ENCRYPT_REQ) ends the connection
 * before anything else is written, and the pool's connect fails with `EncryptionRefused`.
 * The PRELOGIN layout: a TDS packet header (8 bytes), then options as token, big-endian offset
 * and length, closed by 0xFF; ENCRYPTION is token 0x01 (docs/datasources.md#tls).
 */
import net, { type LookupFunction, type Socket } from 'node:net'

const HEADER = 8
const ENCRYPTION = 0x01
const TERMINATOR = 0xff
const ANSWERS: Readonly<Record<number, string>> = {
  0: 'ENCRYPT_OFF',
  1: 'ENCRYPT_ON',
  2: 'ENCRYPT_NOT_SUP',
  3: 'ENCRYPT_REQ',
}

export class EncryptionRefused extends Error {
  readonly code = 'EENCRYPTREFUSED'
  constructor(readonly answer: string) {
    super(
      answer === 'ENCRYPT_NOT_SUP'
        ? 'the server does not support encryption (it answered ENCRYPT_NOT_SUP), so the login was not sent'
        : `the server did not turn encryption on (it answered ${answer}), so the login was not sent`,
    )
  }
}

/** The ENCRYPTION option of a PRELOGIN payload, or undefined when it has none. */
export function encryptionAnswer(payload: Buffer): number | undefined {
  for (let at = 0; at + 5 <= payload.length && payload[at] !== TERMINATOR; at += 5) {
    if (payload[at] !== ENCRYPTION) continue
    const offset = payload.readUInt16BE(at + 1)
    return payload.readUInt16BE(at + 3) >= 1 ? payload[offset] : undefined
  }
  return undefined
}

/** Ends `socket` unless the first packet it receives, the PRELOGIN answer, turns encryption on. */
export function requireEncryption(socket: Socket): void {
  let received = Buffer.alloc(0)
  const inspect = (chunk: Buffer) => {
    received = Buffer.concat([received, chunk])
    if (received.length < HEADER || received.length < received.readUInt16BE(2)) return
    socket.off('data', inspect)
    const value = encryptionAnswer(received.subarray(HEADER, received.readUInt16BE(2)))
    if (value !== 1 && value !== 3)
      socket.destroy(new EncryptionRefused(ANSWERS[value ?? -1] ?? 'no ENCRYPTION option'))
  }
  // first in line: tedious's own reader sees the bytes after this check, and its LOGIN7 write
  // comes on a later turn, to a destroyed socket
  socket.prependListener('data', inspect)
}

export interface ConnectTarget {
  readonly host: string
  readonly port: number
  readonly localAddress?: string | undefined
}

/**
 * tedious's `connector`: called with the target, its DNS lookup and the connect signal
 * (tedious's types declare no parameters, its connection passes these three).
 */
export function encryptedOnlyConnector(
  target?: ConnectTarget,
  lookup?: LookupFunction,
  signal?: AbortSignal,
): Promise<Socket> {
  if (!target) return Promise.reject(new Error('the mssql driver called its connector without a target'))
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const socket = net.connect({
      host: target.host,
      port: target.port,
      ...(target.localAddress === undefined ? {} : { localAddress: target.localAddress }),
      ...(lookup === undefined ? {} : { lookup }),
      autoSelectFamily: true,
    })
    const onAbort = () => {
      socket.destroy()
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    socket.once('error', (err) => {
      signal?.removeEventListener('abort', onAbort)
      reject(err)
    })
    socket.once('connect', () => {
      signal?.removeEventListener('abort', onAbort)
      socket.removeAllListeners('error')
      requireEncryption(socket)
      resolve(socket)
    })
  })
}
