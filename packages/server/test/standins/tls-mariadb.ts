/**
 * A throwaway MariaDB that requires TLS, its certificate issued by a private CA: a second
 * `mariadbd` on a free port over a temporary datadir made by `mariadb-install-db`, started with
 * `--ssl-ca/--ssl-cert/--ssl-key` and `--require-secure-transport` (as a managed MySQL that
 * forces TLS is). The user `reader` has no password; `certuser` must present a client certificate (REQUIRE X509).
 * stop() stops the server and removes its files.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { closedPort } from '../fixtures/net.js'
import type { IssuedCertificate, PrivateCa } from './private-ca.js'

const SERVER = ['/usr/sbin/mariadbd', '/usr/sbin/mysqld'].find((path) => existsSync(path))
const INSTALL = '/usr/bin/mariadb-install-db'
const CLIENT = ['/usr/bin/mariadb', '/usr/bin/mysql'].find((path) => existsSync(path))

export const tlsMariadbAvailable = SERVER !== undefined && existsSync(INSTALL) && CLIENT !== undefined

/** A user without a password (any TLS connection), and one that must present a client certificate. */
export const USER = 'reader'
export const CERT_USER = 'certuser'

export interface TlsMariadb {
  readonly port: number
  stop(): Promise<void>
}

export async function startTlsMariadb(ca: PrivateCa, server: IssuedCertificate): Promise<TlsMariadb> {
  if (!SERVER || !CLIENT) throw new Error('no mariadbd or mariadb client here')
  const root = process.getuid?.() === 0
  const dir = mkdtempSync(join(tmpdir(), 'strata-tls-mariadb-'))
  const data = join(dir, 'data')
  const socket = join(dir, 'mysqld.sock')
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'mysql'], { encoding: 'utf8' }).trim())
    const gid = Number(execFileSync('id', ['-g', 'mysql'], { encoding: 'utf8' }).trim())
    chownSync(dir, uid, gid)
  }
  const user = root ? ['--user=mysql'] : []
  execFileSync(
    INSTALL,
    [
      '--no-defaults',
      `--datadir=${data}`,
      ...user,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      '--skip-name-resolve',
    ],
    { stdio: 'pipe' },
  )
  const port = await closedPort() // free: nothing listens on it
  const child: ChildProcess = spawn(
    SERVER,
    [
      '--no-defaults',
      `--datadir=${data}`,
      ...user,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${socket}`,
      `--pid-file=${join(dir, 'mysqld.pid')}`,
      '--skip-name-resolve',
      '--skip-log-bin',
      '--innodb-buffer-pool-size=16M',
      '--innodb-log-file-size=8M',
      `--ssl-ca=${ca.certPath}`,
      `--ssl-cert=${server.certPath}`,
      `--ssl-key=${server.keyPath}`,
      '--require-secure-transport=ON',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let log = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000)
  })
  const sql = (statement: string) =>
    execFileSync(CLIENT, ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', statement], { stdio: 'pipe' })
  for (let attempt = 0; ; attempt++) {
    try {
      sql('select 1')
      break
    } catch (err) {
      if (attempt > 150 || child.exitCode !== null) {
        child.kill('SIGKILL')
        rmSync(dir, { recursive: true, force: true })
        throw new Error(`mariadbd did not start: ${log}`, { cause: err })
      }
      await sleep(200)
    }
  }
  sql(
    `create user ${USER}@'127.0.0.1'; grant select on *.* to ${USER}@'127.0.0.1'; create user ${CERT_USER}@'127.0.0.1' require x509`,
  )
  return {
    port,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await Promise.race([exited, sleep(10_000)])
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
