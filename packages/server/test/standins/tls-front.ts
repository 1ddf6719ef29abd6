/**
 * A TLS-terminating front: listens on 127.0.0.1 (a free port) with a certificate (one of a
 * private CA's, test/standins/private-ca.ts), and pipes each decrypted connection to a plain TCP
 * port on 127.0.0.1. Put in front of a server that speaks its protocol in plain text (the local
 * ClickHouse's HTTP interface, the search and MongoDB stand-ins), it is what a managed service
 * or a load balancer that terminates TLS looks like to a client: the client's handshake, its
 * certificate checks and its errors are real; what runs behind is unchanged.
 */
import tls from 'node:tls'
import type { IssuedCertificate } from './private-ca.js'
import { listen, pipes } from './tcp-pipe.js'

export interface TlsFront {
  readonly port: number
  /** TLS handshakes that completed (a client that refused the certificate does not count). */
  readonly handshakes: number
  close(): Promise<void>
}

export async function startTlsFront(certificate: IssuedCertificate, targetPort: number): Promise<TlsFront> {
  const connections = pipes()
  let handshakes = 0
  const server = tls.createServer({ cert: certificate.cert, key: certificate.key }, (inbound) => {
    handshakes += 1
    connections.pipe(inbound, targetPort)
  })
  // a client that refuses the certificate aborts the handshake: not the front's error
  server.on('tlsClientError', () => undefined)
  const port = await listen(server, '127.0.0.1')
  return {
    port,
    get handshakes() {
      return handshakes
    },
    close: () => connections.close(server),
  }
}
