/**
 * One TDS connection of the stand-in (server.ts): PRELOGIN → optional TLS → LOGIN7 → requests.
 * Requests run one at a time, in order; an ATTENTION is handled as it arrives (the running
 * statement is cancelled on PostgreSQL, its answer dropped) and answered with DONE + attention
 * after it, as [MS-TDS] 3.3.5.9 asks
 * (https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-tds/9b3d4e7b-6e5c-4b6c-b7b2-9e2d9cbbaf7c).
 */
import type { Socket } from 'node:net'
import pg from 'pg'
import { runStatement, SqlServerError } from './execute.js'
import { parseLogin7 } from './login7.js'
import { answerEncryption, ENCRYPT, parsePrelogin, preloginResponse } from './prelogin.js'
import { parseBatch, parseRpc, SP_EXECUTESQL, UnsupportedType } from './rpc.js'
import type { MssqlStandInOptions, StandInLog } from './server.js'
import { SESSION_SETUP } from './session.js'
import {
  DONE_STATUS,
  doneInProc,
  doneProc,
  doneToken,
  envChangeCollation,
  envChangeDatabase,
  envChangePacketSize,
  errorToken,
  loginAck,
  returnStatus,
  type ServerMessage,
} from './tokens.js'
import { type Certificate, Transport } from './transport.js'
import { type Message, PACKET } from './wire.js'

type State = 'prelogin' | 'tls' | 'login' | 'ready' | 'closed'

const RAW_TEXT = { getTypeParser: () => (value: string) => value }

export class Connection {
  #state: State = 'prelogin'
  #transport: Transport
  #loginOnlyTls = false
  #loginOnly: Certificate | undefined
  #database = ''
  #client: pg.Client | undefined
  #backendPid = 0
  #queue: Promise<void> = Promise.resolve()
  #running: { cancelled: boolean } | undefined

  constructor(
    readonly socket: Socket,
    readonly options: MssqlStandInOptions,
    readonly log: StandInLog,
  ) {
    this.#transport = new Transport(
      socket,
      (m) => this.#receive(m),
      () => socket.destroy(), // a broken packet or a refused TLS handshake ends the connection
    )
  }

  async close(): Promise<void> {
    this.#state = 'closed'
    const client = this.#client
    this.#client = undefined
    await client?.end().catch(() => undefined)
  }

  #reply(tokens: readonly Buffer[]): void {
    if (this.#state !== 'closed') this.#transport.send(PACKET.TABULAR_RESULT, Buffer.concat(tokens))
  }

  #receive(m: Message): void {
    if (m.type === PACKET.ATTENTION) {
      this.#attention()
      return
    }
    this.#queue = this.#queue
      .then(() => this.#handle(m))
      .catch(() => {
        // a message out of order (or a PostgreSQL session that failed): the connection ends
        this.socket.destroy()
      })
  }

  async #handle(m: Message): Promise<void> {
    switch (this.#state) {
      case 'prelogin':
        return this.#prelogin(m)
      case 'tls':
        if (m.type !== PACKET.PRELOGIN) throw new Error('expected the TLS handshake in PRELOGIN packets')
        this.#transport.handshake(m.payload)
        return
      case 'login': {
        const loginOnly = this.#loginOnly
        this.#loginOnly = undefined
        if (loginOnly && m.type === PACKET.PRELOGIN) {
          this.#loginOnlyTls = true
          this.#state = 'tls'
          this.#transport.startTls(loginOnly, () => this.#secured())
          this.#transport.handshake(m.payload)
          return
        }
        return this.#login(m)
      }
      case 'ready':
        return this.#request(m)
      case 'closed':
        return
    }
  }

  #prelogin(m: Message): void {
    if (m.type !== PACKET.PRELOGIN) throw new Error('expected PRELOGIN')
    const client = parsePrelogin(m.payload)
    const answer = answerEncryption(this.options.encryption, client.encryption)
    this.#reply([preloginResponse(answer, client)])
    this.#state = 'login'
    const certificate = this.options.certificate
    if (!certificate) return
    const everything = answer === ENCRYPT.ON || answer === ENCRYPT.REQ
    if (everything) {
      this.#state = 'tls'
      this.#transport.startTls(certificate, () => this.#secured())
    } else if (answer === ENCRYPT.OFF && client.encryption === ENCRYPT.OFF) {
      // ENCRYPT_OFF both ways: a client may encrypt the LOGIN7 alone (its handshake comes
      // first), or send it in clear text, as tedious does
      this.#loginOnly = certificate
    }
  }

  #secured(): void {
    this.log.handshakes += 1
    this.#state = 'login'
  }

  async #login(m: Message): Promise<void> {
    if (m.type !== PACKET.LOGIN7) throw new Error('expected LOGIN7')
    if (this.#transport.encrypted) this.log.encryptedLogins += 1
    else this.log.cleartextLogins += 1
    if (this.#loginOnlyTls) this.#transport.endTls()
    const login = parseLogin7(m.payload)
    const database = login.database === '' ? this.options.defaultDatabase : login.database
    const failed = (messages: ServerMessage[]) => {
      this.#reply([...messages.map(errorToken), doneToken(DONE_STATUS.ERROR)])
      this.#state = 'closed'
      this.socket.end()
    }
    const loginFailed: ServerMessage = {
      number: 18456,
      state: 1,
      class: 14,
      message: `Login failed for user '${login.user}'.`,
    }
    if (this.options.logins[login.user] !== login.password) return failed([loginFailed])
    const schema = this.options.databases[database]
    if (schema === undefined) {
      const cannotOpen = `Cannot open database "${database}" requested by the login. The login failed.`
      return failed([{ number: 4060, state: 1, class: 11, message: cannotOpen }, loginFailed])
    }
    const client = new pg.Client({
      host: '127.0.0.1',
      port: 5432,
      user: 'postgres',
      database: 'test',
      ...this.options.postgres,
      types: RAW_TEXT,
    })
    await client.connect()
    await client.query(SESSION_SETUP)
    this.#backendPid = Number(
      (await client.query<string[]>({ text: 'SELECT pg_backend_pid()', rowMode: 'array' })).rows[0]?.[0],
    )
    this.#client = client
    this.#database = database
    this.#transport.packetSize = login.packetSize || 4096
    this.#state = 'ready'
    this.#reply([
      envChangeDatabase(database, 'master'),
      errorToken({ number: 5701, state: 2, class: 0, message: `Changed database context to '${database}'.` }),
      envChangeCollation(),
      envChangePacketSize(this.#transport.packetSize, 4096),
      loginAck(),
      doneToken(DONE_STATUS.FINAL),
    ])
  }

  async #request(m: Message): Promise<void> {
    const running = { cancelled: false }
    this.#running = running
    const rpc = m.type === PACKET.RPC
    try {
      const tokens = rpc ? await this.#rpc(m.payload) : await this.#batch(m.payload)
      if (!running.cancelled) this.#reply(tokens)
    } catch (err) {
      if (running.cancelled) return
      const message = err instanceof SqlServerError ? err.server : unexpected(err)
      this.#reply([errorToken(message), rpc ? doneProc(DONE_STATUS.ERROR) : doneToken(DONE_STATUS.ERROR)])
    } finally {
      this.#running = undefined
    }
  }

  async #batch(payload: Buffer): Promise<Buffer[]> {
    const text = parseBatch(payload)
    // the session options a client sets after login (tedious: textsize, quoted_identifier …)
    if (/^\s*(set\s+[^;]*?;?\s*)+$/i.test(text)) return [doneToken(DONE_STATUS.FINAL)]
    const answer = await this.#run(text, [])
    return [answer.tokens, doneToken(DONE_STATUS.COUNT, answer.rows)]
  }

  async #rpc(payload: Buffer): Promise<Buffer[]> {
    const call = parseRpc(payload)
    if (call.procedure !== SP_EXECUTESQL && String(call.procedure).toLowerCase() !== 'sp_executesql') {
      throw new SqlServerError({
        number: 2812,
        state: 62,
        class: 16,
        message: `Could not find stored procedure '${call.procedure}'.`,
      })
    }
    const [statement, , ...params] = call.params
    const answer = await this.#run(statement?.value ?? '', params)
    return [answer.tokens, doneInProc(DONE_STATUS.COUNT, answer.rows), returnStatus(0), doneProc(DONE_STATUS.FINAL)]
  }

  #run(text: string, params: Parameters<typeof runStatement>[2]) {
    const client = this.#client
    if (!client) throw new Error('no session')
    this.log.statements.push(text)
    const databases = Object.keys(this.options.databases)
    const schema = this.options.databases[this.#database] as string
    return runStatement(client, text, params, { database: this.#database, schema, databases })
  }

  #attention(): void {
    const running = this.#running
    if (running) {
      running.cancelled = true
      void cancelBackend(this.options.postgres, this.#backendPid)
    }
    this.#queue = this.#queue.then(() => this.#reply([doneToken(DONE_STATUS.ATTN)]))
  }
}

function unexpected(err: unknown): ServerMessage {
  const text = err instanceof UnsupportedType ? err.message : `stand-in failure: ${(err as Error).message}`
  return { number: 50000, state: 1, class: 16, message: text }
}

async function cancelBackend(config: pg.ClientConfig | undefined, pid: number): Promise<void> {
  const admin = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', ...config })
  try {
    await admin.connect()
    await admin.query('SELECT pg_cancel_backend($1)', [pid])
  } catch {
    // the statement may have ended already
  } finally {
    await admin.end().catch(() => undefined)
  }
}
