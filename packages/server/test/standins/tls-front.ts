/**
 * A TLS-terminating front: listens on 127.0.0.1 (a free port) with a certificate (one of a
 * private CA's, test/standins/private-ca.ts), and pipes each decrypted connection to a plain TCP
 * port on 127.0.0.1. Put in front of a server that speaks its protocol in plain text (the local
 * ClickHouse's HTTP interface, the search and MongoDB stand-ins), it is what a managed service
 * or a load balancer that terminates TLS looks like to a client: the client's handshake, its
 * certificate checks and its errors are real; what runs behind is unchanged.
 */
import net from 'node:net'
import tls from 'node:tls'
import type { IssuedCertificate } from './private-ca.js'

export interface TlsFront {
  readonly port: number
  /** TLS handshakes that completed (a client that refused the certificate does not count). */
  readonly handshakes: number
  close(): Promise<void>
}

export async function startTlsFront(certificate: IssuedCertificate, targetPort: number): Promise<TlsFront> {
  const sockets = new Set<net.Socket>()
  let handshakes = 0
  const server = tls.createServer({ cert: certificate.cert, key: certificate.key }, (inbound) => {
    handshakes += 1
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
  })
  // a client that refuses the certificate aborts the handshake: not the front's error
  server.on('tlsClientError', () => undefined)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  return {
    port,
    get handshakes() {
      return handshakes
    },
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
