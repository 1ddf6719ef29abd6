/**
 * A private certificate authority made at test time with the openssl CLI: a CA and the server
 * and client certificates it issues (P-256 keys, valid two days), in a temporary directory that
 * close() removes. Nothing here is committed: every run has its own CA, so no key matters, and
 * the files are readable by everyone (a server started as another OS user reads them).
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface IssuedCertificate {
  /** PEM certificate. */
  readonly cert: string
  /** PEM private key (unencrypted PKCS#8). */
  readonly key: string
  readonly certPath: string
  readonly keyPath: string
}

export interface PrivateCa {
  /** PEM certificate of the CA: what a client trusts. */
  readonly cert: string
  readonly certPath: string
  /** A server certificate naming `altNames` (`IP:127.0.0.1`, `DNS:db.internal` …). */
  issueServer(name: string, altNames: readonly string[]): IssuedCertificate
  /** A client certificate whose common name is `user` (PostgreSQL's cert authentication reads it). */
  issueClient(name: string, user: string): IssuedCertificate
  close(): void
}

const openssl = (cwd: string, args: readonly string[]) => execFileSync('openssl', args, { cwd, stdio: 'pipe' })

const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'] as const

export function createPrivateCa(commonName = 'Strata test CA'): PrivateCa {
  const dir = mkdtempSync(join(tmpdir(), 'strata-ca-'))
  openssl(dir, [
    'req',
    '-x509',
    ...NEW_KEY,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    `/CN=${commonName}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ])
  let serial = 0
  const issue = (name: string, subject: string, extensions: string): IssuedCertificate => {
    serial += 1
    writeFileSync(join(dir, `${name}.ext`), extensions)
    openssl(dir, ['req', ...NEW_KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject])
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-set_serial',
      String(1000 + serial),
      '-days',
      '2',
      '-out',
      `${name}.pem`,
      '-extfile',
      `${name}.ext`,
    ])
    for (const file of readdirSync(dir)) chmodSync(join(dir, file), 0o644)
    const certPath = join(dir, `${name}.pem`)
    const keyPath = join(dir, `${name}.key`)
    return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), certPath, keyPath }
  }
  chmodSync(dir, 0o755)
  const certPath = join(dir, 'ca.pem')
  return {
    cert: readFileSync(certPath, 'utf8'),
    certPath,
    issueServer: (name, altNames) =>
      issue(name, `/CN=${name}`, `subjectAltName=${altNames.join(',')}\nextendedKeyUsage=serverAuth\n`),
    issueClient: (name, user) => issue(name, `/CN=${user}`, 'extendedKeyUsage=clientAuth\n'),
    close: () => rmSync(dir, { recursive: true, force: true }),
  }
}
