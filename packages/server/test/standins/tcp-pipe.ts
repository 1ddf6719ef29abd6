/**
 * The plumbing of the test forwarders (fixtures/outside-address.ts, standins/tls-front.ts): each
 * accepted connection piped to a port on 127.0.0.1, both sides torn down together, and a close
 * that ends every open connection before the listener.
 */
import net from 'node:net'

export interface Pipes {
  /** Pipes one accepted connection to 127.0.0.1:`targetPort`. */
  pipe(inbound: net.Socket, targetPort: number): void
  /** Destroys every open connection, then closes `server`. */
  close(server: net.Server): Promise<void>
}

export function pipes(): Pipes {
  const sockets = new Set<net.Socket>()
  return {
    pipe(inbound, targetPort) {
      const outbound = net.connect(targetPort, '127.0.0.1')
      for (const s of [inbound, outbound]) {
        sockets.add(s)
        s.on('error', () => {
          inbound.destroy()
          outbound.destroy()
        })
        s.on('close', () => sockets.delete(s))
      }
      inbound.pipe(outbound).pipe(inbound)
    },
    async close(server) {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Listens on `host` at a free port; resolves with the port. */
export async function listen(server: net.Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  return (server.address() as net.AddressInfo).port
}
