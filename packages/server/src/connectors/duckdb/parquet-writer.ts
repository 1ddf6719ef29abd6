/**
 * Writes a rollup build's rows to Parquet files with DuckDB, in the engine process
 * (engine-host/child.ts): the server never loads DuckDB. A build opens a writer, appends its
 * rows batch by batch as they arrive from the warehouse (each batch split into the files it
 * belongs to, values column by column with their types), then finishes it: every file's table
 * is COPYed to the staging path the caller gives (which the caller then publishes under its
 * final name: a reader never sees a half-written file) and dropped. A build that fails discards
 * its writer: no file was written.
 *
 * One in-memory instance per memory limit stays open for the engine process's life; a writer is
 * one connection holding a typed table and an open DuckDB appender per file, so a batch costs
 * one request across the process boundary, and each file's rows go in as data chunks, whole
 * columns at a time (appendColumns).
 */
import {
  BIGINT,
  BOOLEAN,
  DOUBLE,
  type DuckDBAppender,
  type DuckDBConnection,
  DuckDBDataChunk,
  DuckDBInstance,
  type DuckDBType,
  type DuckDBValue,
  ENUM,
  quotedIdentifier,
  TIMESTAMPTZ,
  timestampTZValue,
  VARCHAR,
} from '@duckdb/node-api'
import { literal } from './engine.js'

/** The column types a rollup file holds (TIMESTAMPTZ: an instant, read back with its offset). */
export const PARQUET_TYPES = ['VARCHAR', 'BIGINT', 'DOUBLE', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'TIMESTAMPTZ'] as const
export type ParquetType = (typeof PARQUET_TYPES)[number]

export interface ParquetColumn {
  readonly name: string
  readonly type: ParquetType
}

/** Rows of one file in one batch. */
export interface ParquetPart {
  /** The file's key, the caller's own (a tenant database and a partition). */
  readonly key: string
  /** The file's columns: required the first time a writer sees `key`, ignored after. */
  readonly columns?: readonly ParquetColumn[]
  /**
   * The values column by column, in the order of the columns, each as long as the others (one
   * array per column crosses the process boundary faster than one array per row); a column
   * with a dictionary in `texts` is its codes instead.
   */
  readonly values: readonly (readonly unknown[] | Int32Array)[]
  /**
   * Per column, null or the distinct texts of a text column, whose values are then given as
   * indexes into them (-1: NULL): a dimension's few texts cross once, not once per row.
   */
  readonly texts?: readonly (readonly string[] | null)[]
}

export interface OpenWriterArgs {
  readonly memoryLimitMb: number
}

export interface AppendArgs {
  readonly writer: number
  readonly parts: readonly ParquetPart[]
}

export interface FinishArgs {
  readonly writer: number
  /** Where each key's file goes; every key appended to needs one. */
  readonly files: readonly { readonly key: string; readonly path: string }[]
}

/** Files of a writer to forget: a tenant database whose part of a build failed. */
export interface DropArgs {
  readonly writer: number
  readonly keys: readonly string[]
}

export interface FinishedFile {
  readonly key: string
  readonly rows: number
}

interface FileTable {
  readonly name: string
  readonly width: number
  /** Each column's type in the table. */
  readonly types: readonly ParquetType[]
  readonly appender: DuckDBAppender
  rows: number
}

interface Writer {
  readonly conn: DuckDBConnection
  readonly tables: Map<string, FileTable>
}

/** The writing instances, by memory limit (one in practice: DUCKDB_MEMORY_LIMIT_MB). */
const instances = new Map<number, Promise<DuckDBInstance>>()
/** Open writers, each a build's from open to finish or discard. */
const writers = new Map<number, Writer>()
let ids = 0

function instanceFor(memoryLimitMb: number): Promise<DuckDBInstance> {
  let instance = instances.get(memoryLimitMb)
  if (instance === undefined) {
    instance = DuckDBInstance.create(':memory:', { memory_limit: `${memoryLimitMb}MB` })
    instance.catch(() => instances.delete(memoryLimitMb))
    instances.set(memoryLimitMb, instance)
  }
  return instance
}

async function openWriter(args: OpenWriterArgs): Promise<{ writer: number }> {
  const conn = await (await instanceFor(args.memoryLimitMb)).connect()
  const writer = ++ids
  writers.set(writer, { conn, tables: new Map() })
  return { writer }
}

function writerOf(id: number): Writer {
  const writer = writers.get(id)
  if (writer === undefined) throw new Error(`no open Parquet writer ${String(id)}`)
  return writer
}

async function appendRows(args: AppendArgs): Promise<{ rows: number }> {
  const writer = writerOf(args.writer)
  let appended = 0
  for (const part of args.parts) {
    const table = writer.tables.get(part.key) ?? (await createTable(writer, part))
    if (part.values.length !== table.width) throw new Error('one array of values per column')
    const rows = part.values[0]?.length ?? 0
    if (part.values.some((v) => v.length !== rows)) throw new Error('every column needs as many values')
    appendColumns(table, decoded(part), rows)
    table.rows += rows
    appended += rows
  }
  return { rows: appended }
}

/** A part's values with every coded column back as its texts (the same string objects, shared). */
function decoded(part: ParquetPart): readonly (readonly unknown[])[] {
  const { texts } = part
  if (texts !== undefined && texts.length !== part.values.length) throw new Error('one dictionary or null per column')
  return part.values.map((column, i) => {
    const dictionary = texts?.[i]
    if (dictionary === null || dictionary === undefined) {
      if (!Array.isArray(column)) throw new Error('codes without a dictionary')
      return column
    }
    if (!(column instanceof Int32Array)) throw new Error('a column with a dictionary is given as its codes')
    const values: (string | null)[] = new Array(column.length)
    for (let r = 0; r < column.length; r++) {
      const code = column[r] as number
      const text = code === -1 ? null : dictionary[code]
      if (text === undefined) throw new Error('a code outside its dictionary')
      values[r] = text
    }
    return values
  })
}

async function createTable(writer: Writer, part: ParquetPart): Promise<FileTable> {
  const columns = part.columns ?? []
  const types = new Set<string>(PARQUET_TYPES)
  if (columns.length === 0) throw new Error('a Parquet file needs at least one column')
  for (const c of columns) if (!types.has(c.type)) throw new Error(`unknown column type ${String(c.type)}`)
  const name = `rollup_${++ids}`
  await writer.conn.run(
    `CREATE TABLE ${quotedIdentifier(name)} (${columns.map((c) => `${quotedIdentifier(c.name)} ${c.type}`).join(', ')})`,
  )
  const table: FileTable = {
    name,
    width: columns.length,
    types: columns.map((c) => c.type),
    appender: await writer.conn.createAppender(name),
    rows: 0,
  }
  writer.tables.set(part.key, table)
  return table
}

/**
 * Rows per row group of a file: DuckDB writes a file's row groups on as many threads as it has,
 * so a file of more than this is written in parallel (one row group is one thread's work).
 */
const ROW_GROUP_ROWS = 32_768

/** COPYs each file's table to its path; the rows of each. The writer is gone afterwards, written or not. */
async function finishWriter(args: FinishArgs): Promise<{ files: FinishedFile[] }> {
  const writer = writerOf(args.writer)
  const paths = new Map(args.files.map((f) => [f.key, f.path]))
  try {
    const files: FinishedFile[] = []
    for (const [key, table] of writer.tables) {
      const path = paths.get(key)
      if (path === undefined) throw new Error(`no path for the Parquet file ${key}`)
      table.appender.flushSync()
      await writer.conn.run(
        `COPY ${quotedIdentifier(table.name)} TO ${await literal(writer.conn, path)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${ROW_GROUP_ROWS})`,
      )
      files.push({ key, rows: table.rows })
    }
    return { files }
  } finally {
    await discardWriter({ writer: args.writer })
  }
}

/** Drops the tables of some keys; the writer stays open for the others (a key never appended to: nothing). */
async function dropFiles(args: DropArgs): Promise<{ dropped: number }> {
  const writer = writerOf(args.writer)
  let dropped = 0
  for (const key of args.keys) {
    const table = writer.tables.get(key)
    if (table === undefined) continue
    writer.tables.delete(key)
    closeAppender(table)
    await writer.conn.run(`DROP TABLE IF EXISTS ${quotedIdentifier(table.name)}`)
    dropped++
  }
  return { dropped }
}

function closeAppender(table: FileTable): void {
  try {
    table.appender.closeSync()
  } catch {
    // an appender whose last flush failed: its table is dropped all the same
  }
}

/** Drops a writer's tables and closes it; nothing when it is gone already. */
async function discardWriter(args: { readonly writer: number }): Promise<void> {
  const writer = writers.get(args.writer)
  if (writer === undefined) return
  writers.delete(args.writer)
  try {
    for (const table of writer.tables.values()) {
      closeAppender(table)
      await writer.conn.run(`DROP TABLE IF EXISTS ${quotedIdentifier(table.name)}`)
    }
  } finally {
    writer.conn.closeSync()
  }
}

/** How many writers are open (tests: a failed build leaves none). */
async function openWriters(): Promise<number> {
  return writers.size
}

/** Rows per data chunk: DuckDB's vector size, the most a chunk holds. */
const CHUNK_ROWS = 2048

/** How a column of one JS type goes into a chunk: the vector's type and each value as it takes it. */
interface ChunkColumn {
  readonly type: DuckDBType
  readonly value: (v: unknown) => DuckDBValue
}

const AS_IS = (v: unknown) => v as DuckDBValue
const CHUNK_COLUMN = {
  string: { type: VARCHAR, value: AS_IS },
  number: { type: DOUBLE, value: AS_IS },
  boolean: { type: BOOLEAN, value: AS_IS },
  bigint: { type: BIGINT, value: AS_IS },
  date: { type: TIMESTAMPTZ, value: (v) => timestampTZValue(BigInt((v as Date).getTime()) * 1000n) },
  json: { type: VARCHAR, value: (v) => JSON.stringify(v) },
} satisfies Record<string, ChunkColumn>

/** The chunk column for a column's values: by the JS type they share (NULLs aside); mixed types have none. */
function chunkColumn(values: readonly unknown[]): ChunkColumn | undefined {
  let kind: keyof typeof CHUNK_COLUMN | undefined
  for (const v of values) {
    if (v === null || v === undefined) continue
    const t = typeof v
    const k: keyof typeof CHUNK_COLUMN =
      t === 'string' || t === 'number' || t === 'boolean' || t === 'bigint' ? t : v instanceof Date ? 'date' : 'json'
    if (kind === undefined) kind = k
    else if (k !== kind) return undefined
  }
  return CHUNK_COLUMN[kind ?? 'string']
}

/** Table column types a chunk's text may reach as an ENUM (DuckDB casts an ENUM as its text). */
const ENUM_TARGETS: ReadonlySet<ParquetType> = new Set(['VARCHAR', 'DATE'])
/** The most distinct values of one chunk's text column sent as an ENUM (one byte per value). */
const ENUM_MAX_VALUES = 255

/**
 * The vector type of one chunk's text column: an ENUM of its distinct values when they are few
 * (a rollup's dimensions and day buckets repeat: one byte per value, copied to DuckDB at once,
 * then cast by DuckDB to the table's type as the text itself would be), else VARCHAR (each
 * string copied into the vector by a call of its own).
 */
function textType(column: readonly unknown[], start: number, count: number): DuckDBType {
  const distinct = new Set<string>()
  for (let r = start; r < start + count; r++) {
    const v = column[r]
    if (v === null || v === undefined) continue
    distinct.add(v as string)
    if (distinct.size > ENUM_MAX_VALUES) return VARCHAR
  }
  return distinct.size === 0 ? VARCHAR : ENUM([...distinct])
}

/**
 * Appends a file's rows column by column: data chunks of up to CHUNK_ROWS rows, each column a
 * vector of the JS type its values have, which DuckDB casts to the table's column type as the
 * single values below are (`CAST(value AS type)`). A column whose values mix JS types is rare
 * (a loosely typed warehouse column); its part goes row by row instead.
 */
function appendColumns(table: FileTable, values: readonly (readonly unknown[])[], rows: number): void {
  const { appender } = table
  const columns = values.map(chunkColumn)
  if (columns.some((c) => c === undefined)) {
    for (let r = 0; r < rows; r++) {
      for (const column of values) append(appender, column[r])
      appender.endRow()
    }
    return
  }
  const kinds = columns as ChunkColumn[]
  for (let start = 0; start < rows; start += CHUNK_ROWS) {
    const count = Math.min(CHUNK_ROWS, rows - start)
    const chunk = DuckDBDataChunk.create(
      kinds.map((k, i) =>
        k.type === VARCHAR && k.value === AS_IS && ENUM_TARGETS.has(table.types[i] as ParquetType)
          ? textType(values[i] as readonly unknown[], start, count)
          : k.type,
      ),
      count,
    )
    for (const [i, kind] of kinds.entries()) {
      const column = values[i] as readonly unknown[]
      if (kind.value === AS_IS) {
        // taken as they are (a vector sets NULL for null and undefined alike): no copy converted
        chunk.setColumnValues(i, (count === rows ? column : column.slice(start, start + count)) as DuckDBValue[])
        continue
      }
      const slice: DuckDBValue[] = new Array(count)
      for (let r = 0; r < count; r++) {
        const v = column[start + r]
        slice[r] = v === null || v === undefined ? null : kind.value(v)
      }
      chunk.setColumnValues(i, slice)
    }
    appender.appendDataChunk(chunk)
  }
}

/**
 * Appends one value as the JS type it has (text, double, boolean, bigint); the appender converts
 * it to the column's type with DuckDB's own cast, as `CAST(value AS type)` would: an ISO text to
 * a DATE, TIMESTAMP or TIMESTAMPTZ (its offset applied), a decimal's text or a double to BIGINT, NULL as NULL.
 */
function append(appender: DuckDBAppender, value: unknown): void {
  if (value === null || value === undefined) appender.appendNull()
  else if (typeof value === 'string') appender.appendVarchar(value)
  else if (typeof value === 'number') appender.appendDouble(value)
  else if (typeof value === 'boolean') appender.appendBoolean(value)
  else if (typeof value === 'bigint') appender.appendBigInt(value)
  else if (value instanceof Date) appender.appendTimestampTZ(timestampTZValue(BigInt(value.getTime()) * 1000n))
  else appender.appendVarchar(JSON.stringify(value))
}

export const PARQUET_HANDLERS = {
  'duckdb.parquetOpen': openWriter,
  'duckdb.parquetAppend': appendRows,
  'duckdb.parquetDrop': dropFiles,
  'duckdb.parquetFinish': finishWriter,
  'duckdb.parquetDiscard': discardWriter,
  'duckdb.parquetWriters': openWriters,
} as const
