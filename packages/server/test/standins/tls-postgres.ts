/**
 * A throwaway PostgreSQL cluster that requires TLS, its certificate issued by a private CA:
 * initdb in a temporary directory (as the postgres OS user when the tests run as root), then
 * pg_ctl start on a free port with `ssl = on`. pg_hba.conf accepts TLS connections from
 * 127.0.0.1 only (trust; `cert` authentication for the user `certuser`) and rejects plain ones,
 * as a managed PostgreSQL that forces TLS does. stop() stops the cluster and removes its files.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closedPort } from '../fixtures/net.js'
import type { IssuedCertificate, PrivateCa } from './private-ca.js'

const BIN = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'].find((dir) =>
  existsSync(join(dir, 'initdb')),
)

export const tlsPostgresAvailable = BIN !== undefined

export interface TlsPostgres {
  readonly port: number
  stop(): void
}

/** The user (and the certificate common name) of `cert` authentication. */
export const CERT_USER = 'certuser'

function runAs(user: string | undefined, command: string, args: readonly string[]): void {
  if (user === undefined) execFileSync(command, args, { stdio: 'pipe' })
  else execFileSync('runuser', ['-u', user, '--', command, ...args], { stdio: 'pipe' })
}

function ids(user: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim())
  const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim())
  return { uid, gid }
}

export async function startTlsPostgres(ca: PrivateCa, server: IssuedCertificate): Promise<TlsPostgres> {
  if (BIN === undefined) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql')
  const root = process.getuid?.() === 0
  const user = root ? 'postgres' : undefined
  const dir = mkdtempSync(join(tmpdir(), 'strata-tls-pg-'))
  const data = join(dir, 'data')
  const owner = user === undefined ? undefined : ids(user)
  if (owner) chownSync(dir, owner.uid, owner.gid)
  runAs(user, join(BIN, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-instructions'])
  for (const [from, to] of [
    [server.certPath, 'server.crt'],
    [server.keyPath, 'server.key'],
    [ca.certPath, 'root.crt'],
  ] as const) {
    copyFileSync(from, join(data, to))
    if (owner) chownSync(join(data, to), owner.uid, owner.gid)
    chmodSync(join(data, to), 0o600)
  }
  const port = await closedPort() // free: nothing listens on it
  writeFileSync(
    join(data, 'postgresql.auto.conf'),
    [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'ssl = on',
      "ssl_cert_file = 'server.crt'",
      "ssl_key_file = 'server.key'",
      "ssl_ca_file = 'root.crt'",
      'fsync = off',
      'max_connections = 30',
      'shared_buffers = 16MB',
      '',
    ].join('\n'),
  )
  writeFileSync(
    join(data, 'pg_hba.conf'),
    [
      'local all postgres trust',
      `hostssl all ${CERT_USER} 127.0.0.1/32 cert`,
      'hostssl all all 127.0.0.1/32 trust',
      'hostnossl all all 127.0.0.1/32 reject',
      '',
    ].join('\n'),
  )
  const ctl = join(BIN, 'pg_ctl')
  runAs(user, ctl, ['start', '-w', '-t', '30', '-D', data, '-l', join(dir, 'log'), '-o', '-c fsync=off'])
  runAs(user, join(BIN, 'psql'), [
    '-h',
    dir,
    '-p',
    String(port),
    '-U',
    'postgres',
    '-d',
    'postgres',
    '-c',
    `create role ${CERT_USER} login`,
  ])
  return {
    port,
    stop: () => {
      try {
        runAs(user, ctl, ['stop', '-m', 'immediate', '-D', data])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}
