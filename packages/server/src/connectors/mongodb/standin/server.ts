/**
 * A MongoDB STAND-IN (test code, not MongoDB): a TCP server speaking MongoDB's wire protocol —
 * OP_MSG (and OP_QUERY / OP_REPLY for a legacy handshake) with BSON from the `bson` package —
 * over in-memory collections whose pipelines `mingo` evaluates (engine.ts). It is used through
 * the official `mongodb` driver, and implements: hello / isMaster (a standalone server, wire
 * version 21 = MongoDB 7.0), SCRAM-SHA-256 through saslStart / saslContinue with real
 * verification of the password (scram.ts; every other command needs an authenticated
 * connection) against the user of the database the client authenticates to (`$db` of saslStart,
 * the client's authSource): as in MongoDB, a user is its name and its authentication database
 * (https://www.mongodb.com/docs/manual/core/security-users/#user-authentication-database), ping, buildInfo, listDatabases, listCollections, aggregate with cursors
 * (batchSize, getMore, killCursors), maxTimeMS (code 50 MaxTimeMSExpired), killOp, endSessions,
 * and errors with MongoDB's codes. It proves the transport, never the server's engine.
 *
 * Test-only: an aggregate on the collection `strata_standin_hold` does not answer until its
 * maxTimeMS passes (MaxTimeMSExpired), it is killed (killOp), or its connection closes — the way
 * the conformance suite sees a statement cancelled on the server (`held(marker)` counts those
 * whose pipeline mentions `marker`).
 */
import { createServer, type Server, type Socket } from 'node:net'
import { BSON, type Document, Long } from 'bson'
import { CommandError, runPipeline } from './engine.js'
import { type Credential, credentialOf, ScramConversation } from './scram.js'

const OP_REPLY = 1
const OP_QUERY = 2004
const OP_MSG = 2013
export const HOLD_COLLECTION = 'strata_standin_hold'
const UNAUTHENTICATED_OK = new Set([
  'hello',
  'ismaster',
  'isMaster',
  'saslStart',
  'saslContinue',
  'ping',
  'endSessions',
  'buildInfo',
  'buildinfo',
])

type Doc = Record<string, unknown>

interface CursorState {
  readonly ns: string
  readonly rows: Doc[]
  offset: number
}

interface Held {
  readonly opid: number
  readonly text: string
  readonly connection: Connection
  readonly stop: (error: CommandError) => void
}

interface Connection {
  readonly id: number
  readonly socket: Socket
  user: string | undefined
  scram: ScramConversation | undefined
}

export interface StandInOptions {
  /** Users created in the `admin` database (user → password). */
  readonly users: Readonly<Record<string, string>>
  /** Users created in other databases: database → user → password. */
  readonly databaseUsers?: Readonly<Record<string, Readonly<Record<string, string>>>>
}

export class MongoStandIn {
  /** `<authentication database>\u0000<user>` → what the server keeps of the password. */
  readonly #users = new Map<string, Credential>()
  /** database → collection → documents */
  readonly databases = new Map<string, Map<string, Doc[]>>()
  readonly #cursors = new Map<number, CursorState>()
  readonly #held = new Map<number, Held>()
  readonly #connections = new Set<Connection>()
  #server: Server | undefined
  #nextId = 1
  port = 0

  constructor(options: StandInOptions) {
    const users = { admin: options.users, ...options.databaseUsers }
    for (const [database, list] of Object.entries(users)) {
      for (const [user, password] of Object.entries(list))
        this.#users.set(`${database}\u0000${user}`, credentialOf(password))
    }
  }

  /** Adds documents to a collection (creating the database and the collection). */
  insert(database: string, collection: string, documents: readonly Doc[]): void {
    let db = this.databases.get(database)
    if (!db) {
      db = new Map()
      this.databases.set(database, db)
    }
    db.set(collection, [...(db.get(collection) ?? []), ...documents.map((d) => ({ ...d }))])
  }

  /** Held aggregates whose pipeline mentions `marker` (test-only view of "currentOp"). */
  held(marker: string): number {
    return [...this.#held.values()].filter((h) => h.text.includes(marker)).length
  }

  /** Client connections open now. */
  get connections(): number {
    return this.#connections.size
  }

  async start(): Promise<number> {
    const server = createServer((socket) => this.#accept(socket))
    this.#server = server
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    this.port = (server.address() as { port: number }).port
    return this.port
  }

  async stop(): Promise<void> {
    for (const c of this.#connections) c.socket.destroy()
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve())
  }

  #accept(socket: Socket): void {
    const connection: Connection = { id: this.#nextId++, socket, user: undefined, scram: undefined }
    this.#connections.add(connection)
    let buffer = Buffer.alloc(0)
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk])
      while (buffer.length >= 4) {
        const length = buffer.readInt32LE(0)
        if (buffer.length < length) break
        const message = buffer.subarray(0, length)
        buffer = buffer.subarray(length)
        void this.#message(connection, message)
      }
    })
    const gone = () => {
      this.#connections.delete(connection)
      // a closed connection ends its operations, as mongod does when the client disconnects
      for (const h of this.#held.values()) {
        if (h.connection === connection) h.stop(new CommandError('operation was interrupted', 11601, 'Interrupted'))
      }
    }
    socket.on('close', gone)
    socket.on('error', () => socket.destroy())
  }

  async #message(connection: Connection, message: Buffer): Promise<void> {
    const requestId = message.readInt32LE(4)
    const opCode = message.readInt32LE(12)
    if (opCode === OP_MSG) {
      const flags = message.readUInt32LE(16)
      let at = 20
      let body: Doc | undefined
      const end = flags & 1 ? message.length - 4 : message.length // checksumPresent
      while (at < end) {
        const kind = message.readUInt8(at)
        at += 1
        const size = message.readInt32LE(at)
        if (kind === 0) body = BSON.deserialize(message.subarray(at, at + size), { promoteLongs: false })
        else {
          // kind 1: a document sequence (identifier, documents) merged into the body as an array
          const section = message.subarray(at, at + size)
          const nul = section.indexOf(0, 4)
          const identifier = section.subarray(4, nul).toString('utf8')
          const docs: Doc[] = []
          for (let p = nul + 1; p < section.length; ) {
            const n = section.readInt32LE(p)
            docs.push(BSON.deserialize(section.subarray(p, p + n)))
            p += n
          }
          body = { ...body, [identifier]: docs }
        }
        at += size
      }
      const reply = await this.#command(connection, body ?? {})
      this.#send(connection.socket, requestId, OP_MSG, Buffer.concat([u32(0), Buffer.from([0]), BSON.serialize(reply)]))
      return
    }
    if (opCode === OP_QUERY) {
      // flags, fullCollectionName (cstring), numberToSkip, numberToReturn, query
      const nul = message.indexOf(0, 20)
      const at = nul + 1 + 8
      const size = message.readInt32LE(at)
      const query = BSON.deserialize(message.subarray(at, at + size), { promoteLongs: false })
      const reply = await this.#command(connection, (query.$query as Doc | undefined) ?? query)
      const header = Buffer.alloc(20)
      header.writeInt32LE(0, 0) // responseFlags
      header.writeBigInt64LE(0n, 4) // cursorID
      header.writeInt32LE(0, 12) // startingFrom
      header.writeInt32LE(1, 16) // numberReturned
      this.#send(connection.socket, requestId, OP_REPLY, Buffer.concat([header, BSON.serialize(reply)]))
      return
    }
    connection.socket.destroy() // an opcode MongoDB 6+ no longer accepts
  }

  #send(socket: Socket, responseTo: number, opCode: number, payload: Buffer): void {
    const header = Buffer.alloc(16)
    header.writeInt32LE(16 + payload.length, 0)
    header.writeInt32LE(this.#nextId++, 4)
    header.writeInt32LE(responseTo, 8)
    header.writeInt32LE(opCode, 12)
    if (!socket.destroyed) socket.write(Buffer.concat([header, payload]))
  }

  async #command(connection: Connection, body: Doc): Promise<Document> {
    const name = Object.keys(body)[0] ?? ''
    try {
      if (!UNAUTHENTICATED_OK.has(name) && connection.user === undefined && this.#users.size > 0) {
        throw new CommandError(`Command ${name} requires authentication`, 13, 'Unauthorized')
      }
      return { ...(await this.#run(connection, name, body)), ok: 1 }
    } catch (err) {
      const e = err instanceof CommandError ? err : new CommandError(String(err), 1, 'InternalError')
      return { ok: 0, errmsg: e.message, code: e.code, codeName: e.codeName }
    }
  }

  async #run(connection: Connection, name: string, body: Doc): Promise<Document> {
    const database = String(body.$db ?? 'admin')
    switch (name) {
      case 'hello':
      case 'ismaster':
      case 'isMaster':
        return {
          helloOk: true,
          ismaster: true,
          isWritablePrimary: true,
          maxBsonObjectSize: 16 * 1024 * 1024,
          maxMessageSizeBytes: 48_000_000,
          maxWriteBatchSize: 100_000,
          localTime: new Date(),
          logicalSessionTimeoutMinutes: 30,
          connectionId: connection.id,
          minWireVersion: 0,
          maxWireVersion: 21,
          readOnly: false,
          ...(typeof body.saslSupportedMechs === 'string' ? { saslSupportedMechs: ['SCRAM-SHA-256'] } : {}),
        }
      case 'buildInfo':
      case 'buildinfo':
        return { version: '7.0.0-standin', versionArray: [7, 0, 0, 0] }
      case 'ping':
      case 'endSessions':
        return {}
      case 'saslStart': {
        if (body.mechanism !== 'SCRAM-SHA-256') {
          throw new CommandError(
            `Received authentication for mechanism ${String(body.mechanism)} which is not enabled`,
            334,
            'MechanismUnavailable',
          )
        }
        // a user is identified by its name and the database it was created in: the client
        // authenticates against that database (its authSource), which is the command's $db
        const scram = new ScramConversation((user) => this.#users.get(`${database}\u0000${user}`))
        connection.scram = scram
        const serverFirst = scram.start(payloadText(body.payload))
        return { conversationId: 1, done: false, payload: new BSON.Binary(Buffer.from(serverFirst)) }
      }
      case 'saslContinue': {
        const scram = connection.scram
        const text = payloadText(body.payload)
        if (scram === undefined) throw new CommandError('No SASL session state found', 17, 'ProtocolError')
        if (text === '') return { conversationId: 1, done: true, payload: new BSON.Binary(Buffer.alloc(0)) }
        const serverFinal = scram.finish(text)
        connection.scram = undefined
        if (serverFinal === undefined) throw new CommandError('Authentication failed.', 18, 'AuthenticationFailed')
        connection.user = scram.user
        return { conversationId: 1, done: true, payload: new BSON.Binary(Buffer.from(serverFinal)) }
      }
      case 'listDatabases': {
        const names = ['admin', ...[...this.databases.keys()].filter((d) => d !== 'admin')]
        return { databases: names.map((n) => ({ name: n, sizeOnDisk: 0, empty: false })), totalSize: 0 }
      }
      case 'listCollections': {
        const names = [...(this.databases.get(database)?.keys() ?? [])]
        const batch = names.map((n) => ({ name: n, type: 'collection', options: {}, info: { readOnly: false } }))
        return { cursor: { id: Long.fromNumber(0), ns: `${database}.$cmd.listCollections`, firstBatch: batch } }
      }
      case 'aggregate':
        return this.#aggregate(connection, database, body)
      case 'getMore': {
        const id = Number(body.getMore)
        const cursor = this.#cursors.get(id)
        if (!cursor) throw new CommandError(`cursor id ${id} not found`, 43, 'CursorNotFound')
        return this.#batch(id, cursor, Number(body.batchSize ?? 101), 'nextBatch')
      }
      case 'killCursors': {
        const ids = ((body.cursors as unknown[]) ?? []).map((c) => Number(c))
        const killed = ids.filter((id) => this.#cursors.delete(id))
        return {
          cursorsKilled: killed.map((id) => Long.fromNumber(id)),
          cursorsNotFound: ids.filter((id) => !killed.includes(id)).map((id) => Long.fromNumber(id)),
          cursorsAlive: [],
          cursorsUnknown: [],
        }
      }
      case 'killOp': {
        const held = this.#held.get(Number(body.op))
        held?.stop(new CommandError('operation was interrupted', 11601, 'Interrupted'))
        return { info: held ? 'attempting to kill op' : 'no such op' }
      }
      default:
        throw new CommandError(`no such command: '${name}'`, 59, 'CommandNotFound')
    }
  }

  async #aggregate(connection: Connection, database: string, body: Doc): Promise<Document> {
    const collection = String(body.aggregate)
    const stages = body.pipeline
    if (!Array.isArray(stages))
      throw new CommandError("'pipeline' option must be specified as an array", 14, 'TypeMismatch')
    const maxTimeMS = body.maxTimeMS === undefined ? 0 : Number(body.maxTimeMS)
    if (collection === HOLD_COLLECTION) await this.#hold(connection, JSON.stringify(stages), maxTimeMS)
    const started = Date.now()
    const db = this.databases.get(database)
    const rows = runPipeline(db?.get(collection) ?? [], stages as Doc[], (n) => db?.get(n) ?? [])
    if (maxTimeMS > 0 && Date.now() - started > maxTimeMS) {
      throw new CommandError('operation exceeded time limit', 50, 'MaxTimeMSExpired')
    }
    const id = this.#nextId++
    const cursor: CursorState = { ns: `${database}.${collection}`, rows, offset: 0 }
    this.#cursors.set(id, cursor)
    const batchSize = Number((body.cursor as Doc | undefined)?.batchSize ?? 101)
    return this.#batch(id, cursor, batchSize, 'firstBatch')
  }

  #batch(id: number, cursor: CursorState, batchSize: number, field: 'firstBatch' | 'nextBatch'): Document {
    const size = batchSize > 0 ? batchSize : 101
    const batch = cursor.rows.slice(cursor.offset, cursor.offset + size)
    cursor.offset += batch.length
    const done = cursor.offset >= cursor.rows.length
    if (done) this.#cursors.delete(id)
    return { cursor: { id: Long.fromNumber(done ? 0 : id), ns: cursor.ns, [field]: batch } }
  }

  /** The test-only held statement: ends by maxTimeMS, killOp or the connection closing. */
  #hold(connection: Connection, text: string, maxTimeMS: number): Promise<void> {
    const opid = this.#nextId++
    return new Promise<void>((_, reject) => {
      const timer =
        maxTimeMS > 0
          ? setTimeout(() => stop(new CommandError('operation exceeded time limit', 50, 'MaxTimeMSExpired')), maxTimeMS)
          : undefined
      const stop = (error: CommandError) => {
        clearTimeout(timer)
        this.#held.delete(opid)
        reject(error)
      }
      this.#held.set(opid, { opid, text, connection, stop })
    })
  }
}

function payloadText(payload: unknown): string {
  if (payload instanceof BSON.Binary) return Buffer.from(payload.buffer).toString('utf8')
  if (payload instanceof Uint8Array) return Buffer.from(payload).toString('utf8')
  return String(payload ?? '')
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeUInt32LE(n, 0)
  return b
}
