/**
 * The byte stream of one TDS connection, with TLS as SQL Server carries it in TDS 7.x
 * ([MS-TDS] 3.2.5.2 / 3.3.5.2 and the PRELOGIN section 2.2.6.5: "the TLS/SSL handshake is
 * carried in PRELOGIN packets",
 * https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-tds/60f56408-0188-4cd5-8b90-25c6f2423868):
 * after a PRELOGIN answer that turns encryption on, each handshake flight of the client comes
 * as the payload of a PRELOGIN message and the server answers each with one PRELOGIN message
 * of its flight. Once the handshake is done, TLS records flow bare on the socket with the TDS
 * packets inside them (all of the connection), or — login-only encryption — the LOGIN7 alone
 * goes through TLS and the connection goes back to clear text after it.
 * TLS 1.2 at most, as SQL Server offers over TDS 7.
 */
import type { Socket } from 'node:net'
import { Duplex } from 'node:stream'
import tls from 'node:tls'
import { type Message, MessageReader, PACKET, packets } from './wire.js'

type Mode = 'clear' | 'handshake' | 'secure'

export interface Certificate {
  readonly cert: string
  readonly key: string
}

export class Transport {
  #mode: Mode = 'clear'
  #reader = new MessageReader()
  #wire: Duplex | undefined
  #secure: tls.TLSSocket | undefined
  #pending: Buffer[] = []
  #flush: NodeJS.Timeout | undefined
  #handshakeDone = false
  packetSize = 4096

  constructor(
    readonly socket: Socket,
    readonly onMessage: (m: Message) => void,
    readonly onFailure: (err: Error) => void,
  ) {
    socket.on('data', (chunk: Buffer) => {
      if (this.#mode === 'secure') {
        // the client answers only after the server's last flight: the handshake is over
        this.#handshakeDone = true
        this.#wire?.push(chunk)
      } else this.#deliver(chunk)
    })
  }

  get encrypted(): boolean {
    return this.#mode === 'secure'
  }

  send(type: number, payload: Buffer): void {
    const bytes = packets(type, payload, this.packetSize)
    if (this.#mode === 'secure') this.#secure?.write(bytes)
    else this.socket.write(bytes)
  }

  /** Starts the server side of the handshake; the next PRELOGIN messages carry it. */
  startTls(certificate: Certificate, onSecure: () => void): void {
    this.#mode = 'handshake'
    const wire = new Duplex({
      read() {},
      write: (chunk: Buffer, _encoding, done) => {
        // the server's last flight may be written after 'secure': wrap until the client speaks
        if (this.#handshakeDone) this.socket.write(chunk)
        else {
          this.#pending.push(chunk)
          clearTimeout(this.#flush)
          this.#flush = setTimeout(() => this.#flushHandshake(), 5)
        }
        done()
      },
    })
    this.#wire = wire
    const secure = new tls.TLSSocket(wire, {
      isServer: true,
      secureContext: tls.createSecureContext({ cert: certificate.cert, key: certificate.key, maxVersion: 'TLSv1.2' }),
    })
    this.#secure = secure
    secure.on('secure', () => {
      this.#mode = 'secure'
      const rest = this.#reader.rest()
      if (rest.length > 0) wire.push(rest)
      this.#reader = new MessageReader()
      onSecure()
    })
    secure.on('data', (chunk: Buffer) => this.#deliver(chunk))
    secure.on('error', (err) => this.onFailure(err))
  }

  /** Login-only encryption: back to clear text after the LOGIN7 (the TLS session is dropped). */
  endTls(): void {
    this.#mode = 'clear'
    this.#secure?.removeAllListeners('data')
    this.#secure?.destroy()
    this.#secure = undefined
    this.#wire = undefined
  }

  /** Handshake bytes from a PRELOGIN message's payload. */
  handshake(payload: Buffer): void {
    this.#wire?.push(payload)
  }

  #flushHandshake(): void {
    const flight = Buffer.concat(this.#pending)
    this.#pending = []
    this.socket.write(packets(PACKET.PRELOGIN, flight, this.packetSize))
  }

  #deliver(chunk: Buffer): void {
    let messages: Message[]
    try {
      messages = this.#reader.feed(chunk)
    } catch (err) {
      this.onFailure(err as Error)
      return
    }
    for (const m of messages) this.onMessage(m)
  }
}
