/**
 * mongodb through the official driver. One MongoClient (its own connection pool) per datasource
 * serves every database: a database is a handle of the client, so DATABASE tenancy needs no pool
 * of its own. A statement is one aggregation request (request.ts); it runs with `maxTimeMS` (the
 * server's limit) and the driver's abort signal (our deadline and the caller's cancel: the driver
 * closes the cursor, or the socket mid-command, and mongod ends an operation whose client went).
 * The server is given by host and port, or by a connection string (`mongodb+srv://` included:
 * the driver resolves its SRV and TXT records and applies the string's options); the user
 * authenticates against `authSource` (default admin, or the string's). Strings compare exactly: every aggregate runs with the simple collation, whatever the
 * collection's default. Reading stops after maxRows + 1 documents and the cursor is closed.
 */
import { type Db, MongoClient } from 'mongodb'
import { connectionError } from '../errors.js'
import { CANCEL_GRACE_MS, checkMaxRows, guarded, METADATA_TIMEOUT_MS, throwIfAborted } from '../shared/execution.js'
import { checkTimeZone } from '../shared/values.js'
import type {
  ColumnInfo,
  Connector,
  ConnectorOptions,
  DataType,
  ExecuteOptions,
  MongodbCredentials,
  QueryResult,
  TableInfo,
} from '../types.js'
import { connectionStringProblem } from './connection-string.js'
import { MONGODB_ERRORS } from './errors.js'
import { parseRequest } from './request.js'
import { bsonType, dataTypeOf, jsonValue } from './type-mapping.js'

/** The password in a connection string's user information (percent-decoded too), if any. */
function stringSecrets(c: MongodbCredentials): string[] {
  const password = /^[^:]+:\/\/[^:@/]*:([^@/]*)@/.exec(c.connectionString ?? '')?.[1]
  if (!password) return []
  try {
    return [password, decodeURIComponent(password)]
  } catch {
    return [password]
  }
}

/** Not tenant databases: MongoDB's own. */
const SYSTEM_DATABASES = new Set(['admin', 'local', 'config'])
/** Documents sampled per collection to find its fields and their types. */
export const SAMPLE_SIZE = 100
const MAX_BATCH = 1000

interface Settings {
  readonly timeoutMs: number
  readonly signal?: AbortSignal | undefined
  readonly connecting?: boolean
}

/** How much sooner than our connect deadline the driver's server selection gives up. */
const SELECTION_MARGIN_MS = 250
export class MongodbConnector implements Connector {
  readonly dialect = 'mongodb' as const
  readonly #credentials: MongodbCredentials
  readonly #options: ConnectorOptions
  #client: MongoClient | undefined
  #closed = false
  /** Databases known to exist (DATABASE tenancy checks a name against them before a query). */
  #known: Set<string> | undefined

  constructor(credentials: MongodbCredentials, options: ConnectorOptions) {
    this.#credentials = credentials
    this.#options = options
  }

  async test(): Promise<void> {
    await this.#run({ timeoutMs: this.#options.connectTimeoutMs, connecting: true }, (_, signal) =>
      this.#client!.db('admin').command({ ping: 1 }, { signal }),
    )
  }

  async databases(): Promise<string[]> {
    const names = await this.#listDatabases()
    return names.filter((n) => !SYSTEM_DATABASES.has(n)).sort()
  }

  async introspect(database?: string): Promise<TableInfo[]> {
    const names = database === undefined ? await this.databases() : [await this.#checkDatabase(database)]
    const tables: TableInfo[] = []
    for (const name of names) {
      const collections = await this.#run({ timeoutMs: METADATA_TIMEOUT_MS }, (db, signal) =>
        db(name).listCollections({}, { nameOnly: true, signal }).toArray(),
      )
      const sorted = collections
        .filter(
          (c) =>
            (c.type === undefined || c.type === 'collection' || c.type === 'view') && !c.name.startsWith('system.'),
        )
        .map((c) => c.name)
        .sort()
      for (const collection of sorted) {
        tables.push({ schema: name, name: collection, columns: await this.#sample(name, collection) })
      }
    }
    return tables
  }

  async execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    const maxRows = checkMaxRows(options.maxRows)
    const timeZone = options.timezone ?? 'UTC'
    checkTimeZone(timeZone)
    throwIfAborted(options.signal)
    const request = parseRequest(sql, options.params, timeZone)
    const database = options.database ?? request.database
    if (database === undefined) throw connectionError('no database: the statement names none and none was given')
    if (options.database !== undefined) await this.#checkDatabase(options.database)
    const settings = { timeoutMs: options.timeoutMs, signal: options.signal }
    return this.#run(settings, async (db, signal) => {
      const cursor = db(database)
        .collection(request.collection)
        .aggregate(request.pipeline, {
          maxTimeMS: options.timeoutMs,
          batchSize: Math.min(maxRows + 1, MAX_BATCH),
          collation: { locale: 'simple' },
          signal,
        })
      const docs: Record<string, unknown>[] = []
      let truncated = false
      try {
        for await (const doc of cursor) {
          if (docs.length === maxRows) {
            truncated = true
            break
          }
          docs.push(doc)
        }
      } finally {
        await cursor.close().catch(() => undefined) // killCursors when we stopped early
      }
      return result(docs, request.columns, timeZone, truncated)
    })
  }

  async close(): Promise<void> {
    this.#closed = true
    const client = this.#client
    this.#client = undefined
    await client?.close().catch(() => undefined)
  }

  /** Runs one driver call through the execution core; `signal` aborts it (cursor or socket). */
  async #run<T>(settings: Settings, work: (db: (name: string) => Db, signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.#closed) throw connectionError('the connector is closed')
    const client = this.#connect()
    const controller = new AbortController()
    const connecting = settings.connecting === true
    return guarded(
      {
        timeoutMs: settings.timeoutMs,
        signal: settings.signal,
        // maxTimeMS stops a statement on the server; while connecting our deadline is the limit
        cancelGraceMs: connecting ? 0 : CANCEL_GRACE_MS,
        connecting,
        errors: MONGODB_ERRORS,
        secrets: [this.#credentials.password, this.#credentials.connectionString, ...stringSecrets(this.#credentials)],
        cancel: () => controller.abort(),
      },
      () => work((name) => client.db(name), controller.signal),
    )
  }

  #connect(): MongoClient {
    if (this.#client) return this.#client
    const c = this.#credentials
    const timeout = this.#options.connectTimeoutMs
    // The user and password go as options, never needing escapes in a URL; given beside a
    // connection string they take precedence over its own, as the driver's options do.
    const auth = c.user === undefined || c.user === '' ? {} : { auth: { username: c.user, password: c.password ?? '' } }
    const options = {
      ...auth,
      ...(c.authSource !== undefined
        ? { authSource: c.authSource }
        : c.connectionString
          ? {}
          : { authSource: 'admin' }),
      // a private CA (docs/datasources.md#tls): TLS on, the chain verified against it
      ...(c.tlsCaCertificate === undefined ? {} : { tls: true, ca: c.tlsCaCertificate }),
      // the driver gives up just before our deadline, so its error (a certificate refused, say) is the answer
      serverSelectionTimeoutMS: Math.max(timeout - SELECTION_MARGIN_MS, Math.ceil(timeout / 2)),
      connectTimeoutMS: timeout,
      maxPoolSize: this.#options.poolMax,
      appName: 'strata',
      monitorCommands: false,
    }
    if (c.connectionString !== undefined) {
      // checked when saved; again here, since the rules may be stricter than when it was saved
      if (connectionStringProblem(c.connectionString) !== undefined) {
        throw connectionError('the connection string is not one this server accepts (save the datasource again)')
      }
      try {
        this.#client = new MongoClient(c.connectionString, options)
      } catch {
        // validated when the datasource was saved; never repeat the string (it may hold a password)
        throw connectionError('the connection string is not one the driver accepts')
      }
      return this.#client
    }
    const host = (c.host ?? '').includes(':') && !c.host?.startsWith('[') ? `[${c.host}]` : (c.host ?? '')
    try {
      this.#client = new MongoClient(`mongodb://${host}:${c.port}/`, options)
    } catch {
      // the driver parses the host as a URL when the client is made: a host it cannot parse
      // (`a|b`, `%`, `[`) is the caller's mistake, not a failure of ours
      throw connectionError(`host ${JSON.stringify(host.slice(0, 200))} is not a valid host name`)
    }
    return this.#client
  }

  async #listDatabases(): Promise<string[]> {
    const out = await this.#run({ timeoutMs: METADATA_TIMEOUT_MS }, (db, signal) =>
      db('admin').command({ listDatabases: 1, nameOnly: true }, { signal }),
    )
    const names = ((out.databases as { name: string }[] | undefined) ?? []).map((d) => d.name)
    this.#known = new Set(names)
    return names
  }

  /** A tenant database must exist (MongoDB would answer an empty result for any name). */
  async #checkDatabase(name: string): Promise<string> {
    if (this.#known?.has(name) || (await this.#listDatabases()).includes(name)) return name
    throw connectionError(`database "${name.slice(0, 64)}" does not exist`)
  }

  /**
   * Fields and types of a collection, from a sample of its documents ($sample), read in `_id`
   * order so the columns come in the same order on every sync (first seen, first listed) —
   * $sample returns its documents in random order.
   */
  async #sample(database: string, collection: string): Promise<ColumnInfo[]> {
    const docs = await this.#run({ timeoutMs: METADATA_TIMEOUT_MS }, (db, signal) =>
      db(database)
        .collection(collection)
        .aggregate([{ $sample: { size: SAMPLE_SIZE } }, { $sort: { _id: 1 } }], {
          maxTimeMS: METADATA_TIMEOUT_MS,
          promoteValues: false,
          promoteLongs: false,
          signal,
        })
        .toArray(),
    )
    const fields = new Map<string, { types: Set<string>; missing: boolean }>()
    docs.forEach((doc, i) => {
      for (const [name, value] of Object.entries(doc)) {
        let f = fields.get(name)
        if (!f) {
          f = { types: new Set(), missing: i > 0 }
          fields.set(name, f)
        }
        f.types.add(bsonType(value))
      }
      for (const [name, f] of fields) if (!(name in doc)) f.missing = true
    })
    const columns: ColumnInfo[] = []
    for (const [name, f] of fields) {
      // an ObjectId key is an opaque handle, not something to group or filter by: left out
      if (name === '_id' && f.types.size === 1 && f.types.has('objectId')) continue
      const types = [...f.types].filter((t) => t !== 'null')
      columns.push({
        name,
        dataType: dataTypeOf(f.types),
        nativeType: types.length === 0 ? 'null' : types.sort().join('|'),
        nullable: f.missing || f.types.has('null'),
      })
    }
    return columns
  }
}

/** Documents → rows named by the request's columns (fields f0, f1 …), JSON-safe, with types. */
function result(
  docs: readonly Record<string, unknown>[],
  names: readonly string[] | undefined,
  timeZone: string,
  truncated: boolean,
): QueryResult {
  const fieldNames = names ?? [...new Set(docs.flatMap((d) => Object.keys(d)))]
  const field = (i: number, name: string) => (names === undefined ? name : `f${i}`)
  const types = fieldNames.map(() => new Set<string>())
  const rows = docs.map((doc) => {
    const row: Record<string, unknown> = {}
    fieldNames.forEach((name, i) => {
      const v = doc[field(i, name)]
      types[i]?.add(bsonType(v))
      row[name] = jsonValue(v, timeZone)
    })
    return row
  })
  const columns = fieldNames.map((name, i) => ({ name, dataType: columnType(types[i]) }))
  return { columns, rows, truncated }
}

function columnType(types: ReadonlySet<string> | undefined): DataType {
  if (types === undefined) return 'unknown'
  // promoted numbers cannot tell int from double: a column of whole numbers is integer
  return dataTypeOf(types)
}
