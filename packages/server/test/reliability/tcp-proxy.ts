import net from 'node:net'

/**
 * A TCP proxy a test controls, standing between the server and a dependency (PostgreSQL,
 * Redis) that other tests share and so must not be stopped. `cut('freeze')` is a network
 * partition: connections stay open but nothing passes either way, and new connections are
 * accepted and then hang (the worst case: no error ever reaches the client). `cut('refuse')`
 * is a dependency that is down: open connections are reset and new ones are refused.
 * `restore()` heals the partition: frozen connections are reset (as a real partition's
 * usually are by then) and new connections pass again.
 */
export class TcpProxy {
  private mode: 'pass' | 'freeze' | 'refuse' = 'pass'
  private readonly pairs = new Set<{ client: net.Socket; upstream: net.Socket | undefined }>()
  private server: net.Server | undefined
  port = 0

  private constructor(
    private readonly target: { host: string; port: number },
    private readonly wantedPort = 0,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target)
    await proxy.listen()
    return proxy
  }

  private async listen(): Promise<void> {
    const server = net.createServer((client) => this.accept(client))
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(this.port || this.wantedPort, '127.0.0.1', () => resolve())
    })
    this.server = server
    this.port = (server.address() as net.AddressInfo).port
  }

  private accept(client: net.Socket): void {
    client.on('error', () => {})
    const pair: { client: net.Socket; upstream: net.Socket | undefined } = { client, upstream: undefined }
    this.pairs.add(pair)
    client.once('close', () => {
      this.pairs.delete(pair)
      pair.upstream?.destroy()
    })
    if (this.mode === 'freeze') {
      client.pause() // accepted, never answered
      return
    }
    const upstream = net.connect(this.target)
    pair.upstream = upstream
    upstream.on('error', () => client.destroy())
    upstream.once('close', () => client.destroy())
    client.pipe(upstream)
    upstream.pipe(client)
  }

  /** How many client connections are open through the proxy. */
  get connections(): number {
    return this.pairs.size
  }

  async cut(mode: 'freeze' | 'refuse'): Promise<void> {
    this.mode = mode
    if (mode === 'freeze') {
      for (const { client, upstream } of this.pairs) {
        client.unpipe()
        upstream?.unpipe()
        client.pause()
        upstream?.pause()
      }
      return
    }
    for (const { client, upstream } of this.pairs) {
      client.resetAndDestroy()
      upstream?.destroy()
    }
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()))
    this.server = undefined
  }

  async restore(): Promise<void> {
    const was = this.mode
    this.mode = 'pass'
    if (was === 'freeze') {
      for (const { client, upstream } of [...this.pairs]) {
        client.resetAndDestroy()
        upstream?.destroy()
      }
    }
    if (!this.server) await this.listen()
  }

  async close(): Promise<void> {
    for (const { client, upstream } of this.pairs) {
      client.destroy()
      upstream?.destroy()
    }
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()))
  }
}
