/**
 * Checks a data file before an engine reads it. DuckDB's readers trust their input: a JSON
 * document nested tens of thousands of levels deep (60 KB of `[`) overflows the reader's stack
 * (SIGSEGV) or makes it allocate without bound (23 GB seen, past its own memory_limit); a few
 * hundred levels already take seconds. So every file is scanned once, streaming (never loaded
 * whole), for what the readers cannot take:
 *  - its size (uncompressed, for a gzip file: a small archive may expand without bound);
 *  - CSV (and .tsv, .txt) and NDJSON (.jsonl, .ndjson): the longest line;
 *  - JSON (.json, .jsonl, .ndjson): how deeply arrays and objects nest (outside strings).
 * Parquet is binary: only its size is bounded. A zstd-compressed text file cannot be scanned
 * here (no zstd decoder in this Node version) and is refused.
 *
 * Where files enter: the upload route (`services/datasources/files.ts`, as the body streams in),
 * the DuckDB connector each time it opens a datasource's files (csv, awss3 file:///), and the
 * awss3 cache as it downloads an object. See docs/datasources.md "File limits".
 */
import { createReadStream } from 'node:fs'
import path from 'node:path'
import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream'
import { createGunzip } from 'node:zlib'
import type { ApiError } from '../../errors.js'
import { badRequest } from '../../errors.js'
import type { Reader } from './sources.js'

export interface FileLimits {
  /** Bytes a file may hold (uncompressed). */
  readonly maxBytes: number
  /** Bytes a line may hold (CSV, NDJSON). */
  readonly maxLineBytes: number
  /** Levels of arrays and objects a JSON value may nest. */
  readonly maxJsonDepth: number
}

/** The defaults (docs/datasources.md): DuckDB reads depth 64 in 0.2 s, 200 in 0.4 s, 1000 in 38 s. */
export const FILE_LIMITS: FileLimits = {
  maxBytes: 1024 * 1024 * 1024,
  maxLineBytes: 1024 * 1024,
  maxJsonDepth: 64,
}

/** How a file's bytes are scanned: from its name (`x.csv.gz` is gzip-compressed CSV). */
export interface FileKind {
  readonly reader: Reader
  readonly compression: 'none' | 'gzip' | 'zstd'
  /** One record per line: the line length is bounded. */
  readonly lines: boolean
}

export function fileKindOf(name: string, reader: Reader): FileKind {
  const lower = name.toLowerCase()
  const compression = lower.endsWith('.gz') ? 'gzip' : lower.endsWith('.zst') ? 'zstd' : 'none'
  const ext = path.extname(compression === 'none' ? lower : lower.slice(0, lower.lastIndexOf('.')))
  return { reader, compression, lines: reader === 'csv' || ext === '.jsonl' || ext === '.ndjson' }
}

const NEWLINE = 0x0a
const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN = new Set([0x5b, 0x7b]) // [ {
const CLOSE = new Set([0x5d, 0x7d]) // ] }

/**
 * The scan of one file's (uncompressed) bytes, fed chunk by chunk: `push` answers the first
 * problem found (then the caller stops reading), `end` the size problem of an empty remainder.
 */
export class FileScanner {
  #bytes = 0
  #line = 0
  #depth = 0
  #inString = false
  #escaped = false
  readonly #kind: FileKind
  readonly #limits: FileLimits

  constructor(kind: FileKind, limits: FileLimits = FILE_LIMITS) {
    this.#kind = kind
    this.#limits = limits
  }

  /** The first problem in `chunk`, or undefined. */
  push(chunk: Buffer): string | undefined {
    this.#bytes += chunk.length
    if (this.#bytes > this.#limits.maxBytes) return `it is larger than ${this.#limits.maxBytes} bytes`
    if (this.#kind.reader === 'parquet') return undefined
    if (this.#kind.lines) {
      const problem = this.#lines(chunk)
      if (problem) return problem
    }
    return this.#kind.reader === 'json' ? this.#json(chunk) : undefined
  }

  #lines(chunk: Buffer): string | undefined {
    let from = 0
    for (;;) {
      const at = chunk.indexOf(NEWLINE, from)
      this.#line += (at === -1 ? chunk.length : at) - from
      if (this.#line > this.#limits.maxLineBytes) {
        return `a line is longer than ${this.#limits.maxLineBytes} bytes (near byte ${this.#bytes - chunk.length + from})`
      }
      if (at === -1) return undefined
      this.#line = 0
      from = at + 1
    }
  }

  #json(chunk: Buffer): string | undefined {
    const max = this.#limits.maxJsonDepth
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false
        else if (byte === BACKSLASH) this.#escaped = true
        else if (byte === QUOTE) this.#inString = false
      } else if (byte === QUOTE) this.#inString = true
      else if (OPEN.has(byte)) {
        if (++this.#depth > max) {
          return `JSON arrays and objects nest deeper than ${max} levels (at byte ${this.#bytes - chunk.length + i})`
        }
      } else if (CLOSE.has(byte) && this.#depth > 0) this.#depth--
    }
    return undefined
  }
}

/** A pass-through stream that fails with `refuse(problem)` at the first problem of its bytes. */
export function scanning(kind: FileKind, refuse: (problem: string) => Error, limits?: FileLimits): Transform {
  const scanner = new FileScanner(kind, limits)
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      const problem = scanner.push(chunk)
      done(problem === undefined ? null : refuse(problem), chunk)
    },
  })
}

/** The 400 of a refused file, naming it (`shown`) and what is wrong. */
export function refusedFile(shown: string, problem: string): ApiError {
  return badRequest(
    `The data file ${shown.slice(0, 200)} is refused: ${problem}. See "File limits" in docs/datasources.md`,
    { file: shown.slice(0, 200), problem },
  )
}

/**
 * Scans the file at `file` (streaming, decompressing gzip); throws the 400 naming `shown`
 * at the first problem. `zstd` text is refused outright: it cannot be scanned here.
 */
export async function checkDataFile(file: string, kind: FileKind, shown: string, limits?: FileLimits): Promise<void> {
  if (kind.compression === 'zstd' && kind.reader !== 'parquet') {
    throw refusedFile(shown, 'zstd-compressed text cannot be checked by this server: store it uncompressed or gzip')
  }
  const source = createReadStream(file)
  const bytes: Readable = kind.compression === 'gzip' ? pipeline(source, createGunzip(), () => {}) : source
  const scanner = new FileScanner(kind, limits)
  try {
    for await (const chunk of bytes) {
      const problem = scanner.push(chunk as Buffer)
      if (problem !== undefined) throw refusedFile(shown, problem)
    }
  } catch (err) {
    const code = (err as { code?: unknown }).code
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR') throw refusedFile(shown, 'it is not valid gzip')
    throw err
  } finally {
    source.destroy()
    bytes.destroy()
  }
}
