/**
 * An SSH tunnel for drivers that only speak TCP: a local server on 127.0.0.1:<random> whose
 * every accepted socket is forwarded (`direct-tcpip`, i.e. `ssh -L`) through one SSH connection
 * to the database host. The SSH connection opens lazily, reopens after it drops, and is shared
 * by every pool of the datasource. `ssh2` is imported only when a tunnel is first used.
 */
import net from 'node:net'
import type { Client, ClientChannel } from 'ssh2'
import { connectionError, errorMessage } from '../errors.js'

export interface SshTunnelConfig {
  readonly sshHost: string
  readonly sshPort: number
  readonly sshUsername: string
  readonly sshPrivateKey: string
  /** The database as seen from the SSH host. */
  readonly targetHost: string
  readonly targetPort: number
  /** The SSH handshake and authentication give up after this long. */
  readonly readyTimeoutMs: number
}

export class SshTunnel {
  readonly #config: SshTunnelConfig
  #server: net.Server | undefined
  #listening: Promise<number> | undefined
  #ssh: Promise<Client> | undefined
  #closed = false
  readonly #sockets = new Set<net.Socket>()

  constructor(config: SshTunnelConfig) {
    this.#config = config
  }

  /**
   * Makes sure the SSH connection is up (throwing a typed DATASOURCE_CONNECTION_ERROR with the
   * SSH reason otherwise) and returns the local endpoint to hand to the driver.
   */
  async ensure(): Promise<{ host: string; port: number }> {
    if (this.#closed) throw connectionError('the SSH tunnel is closed')
    const port = await this.#listen()
    await this.#connection()
    return { host: '127.0.0.1', port }
  }

  async close(): Promise<void> {
    this.#closed = true
    for (const socket of this.#sockets) socket.destroy()
    const server = this.#server
    const ssh = this.#ssh
    this.#ssh = undefined
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()))
    if (ssh) await ssh.then((client) => client.end()).catch(() => undefined)
  }

  #listen(): Promise<number> {
    if (!this.#listening) {
      this.#listening = new Promise<number>((resolve, reject) => {
        const server = net.createServer((socket) => this.#forward(socket))
        this.#server = server
        server.once('error', reject)
        server.listen(0, '127.0.0.1', () => {
          const address = server.address()
          if (address === null || typeof address === 'string') return reject(new Error('no local port'))
          resolve(address.port)
        })
      })
      this.#listening.catch(() => {
        this.#listening = undefined
      })
    }
    return this.#listening
  }

  #connection(): Promise<Client> {
    if (!this.#ssh) {
      const attempt = this.#open()
      this.#ssh = attempt
      attempt.catch(() => {
        if (this.#ssh === attempt) this.#ssh = undefined
      })
    }
    return this.#ssh
  }

  async #open(): Promise<Client> {
    const { default: ssh2 } = await import('ssh2')
    const { sshHost, sshPort, sshUsername, sshPrivateKey, readyTimeoutMs } = this.#config
    const client = new ssh2.Client()
    return new Promise<Client>((resolve, reject) => {
      let ready = false
      const timer = setTimeout(() => {
        client.end()
        reject(connectionError(`the SSH connection to ${sshHost}:${sshPort} timed out`))
      }, readyTimeoutMs + 250)
      client.once('ready', () => {
        ready = true
        clearTimeout(timer)
        resolve(client)
      })
      client.on('error', (err) => {
        clearTimeout(timer)
        if (!ready) reject(connectionError(`SSH: ${sshReason(err)}`, err))
      })
      client.on('close', () => {
        // Drop the dead connection so the next query opens a fresh one.
        if (this.#ssh && ready) this.#ssh = undefined
      })
      try {
        client.connect({
          host: sshHost,
          port: sshPort,
          username: sshUsername,
          privateKey: sshPrivateKey,
          readyTimeout: readyTimeoutMs,
          keepaliveInterval: 15_000,
        })
      } catch (err) {
        // ssh2 throws synchronously on an unparseable private key.
        clearTimeout(timer)
        reject(connectionError(`SSH: ${sshReason(err)}`, err))
      }
    })
  }

  #forward(socket: net.Socket): void {
    this.#sockets.add(socket)
    socket.once('close', () => this.#sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    const { targetHost, targetPort } = this.#config
    this.#connection().then(
      (client) => {
        client.forwardOut('127.0.0.1', socket.remotePort ?? 0, targetHost, targetPort, (err, channel) => {
          if (err) return socket.destroy()
          pipe(socket, channel)
        })
      },
      () => socket.destroy(),
    )
  }
}

function pipe(socket: net.Socket, channel: ClientChannel): void {
  channel.on('error', () => socket.destroy())
  channel.on('close', () => socket.destroy())
  socket.on('close', () => channel.close())
  socket.pipe(channel).pipe(socket)
}

function sshReason(err: unknown): string {
  const level = (err as { level?: unknown }).level
  if (level === 'client-authentication' || /authentication methods failed/i.test(errorMessage(err))) {
    return 'authentication failed (check the SSH user name and private key)'
  }
  if (level === 'client-timeout') return 'timed out before the SSH handshake completed'
  return errorMessage(err)
}
