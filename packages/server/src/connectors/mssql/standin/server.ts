/**
 * A SQL SERVER STAND-IN (test code, not SQL Server): a TCP server speaking TDS 7.4 from
 * Microsoft's protocol documentation [MS-TDS]
 * (https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-tds/b46a581a-39de-4745-b076-ec4dbb7d13ec),
 * used through our real connector (mssql / tedious). It implements:
 * - PRELOGIN with the ENCRYPTION option (prelogin.ts) and TLS carried in PRELOGIN packets
 *   (transport.ts), for a server that encrypts on request (`optional`), one that requires it
 *   and answers ENCRYPT_REQ as Azure SQL does (`required`), and one with no certificate
 *   (`unsupported`, ENCRYPT_NOT_SUP);
 * - LOGIN7 (login7.ts) with a real check of user, password and database: LOGINACK, ENVCHANGE
 *   (database, collation, packet size) and DONE, or Msg 18456 "Login failed for user '…'."
 *   (4060 first for an unknown database), as SQL Server answers;
 * - SQL batches and RPC sp_executesql with typed parameters (rpc.ts), answered with
 *   COLMETADATA, ROW, DONEINPROC, RETURNSTATUS, DONEPROC (tokens.ts, columns.ts);
 * - ATTENTION (a client's cancel, [MS-TDS] 2.2.1.7): the running statement is cancelled on
 *   PostgreSQL and the answer is DONE with the attention bit;
 * - execution on the real PostgreSQL through a translation of the T-SQL our dialect emits
 *   (connection.ts, execute.ts, tsql.ts), one PostgreSQL session per TDS connection; each
 *   SQL Server database is a PostgreSQL schema, shown as the database's `dbo` schema.
 * What it does not do: SQL Server's optimiser, collations beyond binary comparison, MARS,
 * Windows/Entra authentication, TDS 8.0 (`encrypt: strict`), and any T-SQL outside tsql.ts.
 */
import { createServer, type Server, type Socket } from 'node:net'
import type pg from 'pg'
import { Connection } from './connection.js'
import type { EncryptionPolicy } from './prelogin.js'
import type { Certificate } from './transport.js'

export interface MssqlStandInOptions {
  /** SQL logins: user → password. */
  readonly logins: Readonly<Record<string, string>>
  /** SQL Server databases: name → the PostgreSQL schema that holds their tables. */
  readonly databases: Readonly<Record<string, string>>
  /** The database of a login that names none. */
  readonly defaultDatabase: string
  readonly encryption: EncryptionPolicy
  /** The server certificate (PEM); required unless encryption is `unsupported`. */
  readonly certificate?: Certificate
  /** Where PostgreSQL is (default 127.0.0.1:5432, user postgres, database test). */
  readonly postgres?: pg.ClientConfig
}

/** What the stand-in saw, for tests to assert on. */
export interface StandInLog {
  /** LOGIN7 messages that arrived in clear text (the password readable on the wire). */
  cleartextLogins: number
  /** LOGIN7 messages that arrived inside TLS. */
  encryptedLogins: number
  /** Completed TLS handshakes. */
  handshakes: number
  /** The T-SQL of each statement run (batches and sp_executesql). */
  readonly statements: string[]
}

export class MssqlStandIn {
  readonly log: StandInLog = { cleartextLogins: 0, encryptedLogins: 0, handshakes: 0, statements: [] }
  readonly #sockets = new Set<Socket>()
  readonly #connections = new Set<Connection>()
  #server: Server | undefined
  port = 0

  constructor(readonly options: MssqlStandInOptions) {
    if (options.encryption !== 'unsupported' && !options.certificate)
      throw new Error('a stand-in that encrypts needs a certificate')
  }

  async start(): Promise<number> {
    const server = createServer((socket) => {
      this.#sockets.add(socket)
      const connection = new Connection(socket, this.options, this.log)
      this.#connections.add(connection)
      socket.on('close', () => {
        this.#sockets.delete(socket)
        this.#connections.delete(connection)
        void connection.close()
      })
      socket.on('error', () => socket.destroy())
    })
    this.#server = server
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    this.port = (server.address() as { port: number }).port
    return this.port
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy()
    await Promise.all([...this.#connections].map((c) => c.close()))
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()))
  }
}
