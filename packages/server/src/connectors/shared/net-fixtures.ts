/**
 * Local stand-ins for unreachable databases, for tests: never any traffic off this machine.
 * A closed port refuses at once; a silent server accepts and never answers, which is what a
 * blackholed or overloaded host looks like to a driver mid-handshake.
 */
import net from 'node:net'

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

export interface SilentServer {
  readonly port: number
  close(): Promise<void>
}

/** Accepts TCP connections and never sends a byte. */
export async function silentServer(): Promise<SilentServer> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => undefined)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  return {
    port,
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Awaits a promise expected to reject: the error and how long it took. */
export async function caught(promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now()
  try {
    await promise
  } catch (error) {
    return { error, ms: performance.now() - started }
  }
  throw new Error('expected the promise to reject, but it resolved')
}
