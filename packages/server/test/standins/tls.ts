/**
 * A fixed self-signed certificate for 127.0.0.1 (test only, no secret: tls-cert.pem and
 * tls-key.pem were made with `openssl req -x509 -newkey rsa:2048 -nodes -days 36500
 * -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1,DNS:localhost`), and trust in it for
 * Node's fetch in this test process: the global dispatcher (shared with Node's bundled undici)
 * trusts the public roots plus this one certificate. Node 20 has no other way to add a CA to
 * fetch after start-up (NODE_EXTRA_CA_CERTS is read at start).
 */
import { readFileSync } from 'node:fs'
import { rootCertificates } from 'node:tls'
import { Agent, setGlobalDispatcher } from 'undici'

export const TLS = {
  cert: readFileSync(new URL('./tls-cert.pem', import.meta.url), 'utf8'),
  key: readFileSync(new URL('./tls-key.pem', import.meta.url), 'utf8'),
}

let trusted = false

export function trustStandInCertificate(): void {
  if (trusted) return
  trusted = true
  setGlobalDispatcher(new Agent({ connect: { ca: [...rootCertificates, TLS.cert] } }))
}
