/**
 * The files `csv` datasources read (docs/operations.md#files-of-csv-datasources): stored under FILES_ROOT as
 * `<datasourceName>/<fileName>`, which is then the datasource's `path` (the folder, or the one
 * file). A body is streamed to a temporary file beside its destination (created exclusively, a
 * hidden name no datasource lists) and renamed over it only once complete, so a failed, refused
 * or cut-off upload leaves nothing half-written and readers never see a partial file. The bytes
 * are checked as they stream in (size, line length, JSON nesting: connectors/duckdb/file-checks.ts):
 * a file no engine should read is refused with a 400 naming it, before it is stored.
 */
import { randomUUID } from 'node:crypto'
import { mkdir, open, realpath, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { PassThrough, type Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { fileKindOf, refusedFile, scanning } from '../../connectors/duckdb/file-checks.js'
import { isUnder } from '../../connectors/duckdb/files-root.js'
import { readerOf } from '../../connectors/duckdb/sources.js'
import { ApiError, badRequest } from '../../errors.js'
import { fieldsError } from '../../validation/fields.js'

/** What a stored file can be read as (DuckDB's readers). */
export const UPLOAD_EXTENSIONS = ['.csv', '.parquet', '.json'] as const

/** A folder or file name: letters, digits, `_`, `-` and `.`, not first; nothing hidden, no `..`. */
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/

export interface StoredFile {
  /** Relative to FILES_ROOT: the `path` of a csv datasource reading this one file. */
  readonly path: string
  readonly size: number
}

export class DatasourceFiles {
  constructor(
    private readonly root: string,
    private readonly limit: number,
  ) {}

  /**
   * Stores `body` as `<datasourceName>/<fileName>`, replacing a file of that name. `declared` is
   * the request's Content-Length, when it gave one: past the limit, nothing is read.
   */
  async store(
    datasourceName: string,
    fileName: string,
    body: Readable | undefined,
    declared?: number,
  ): Promise<StoredFile> {
    checkName('datasourceName', datasourceName)
    checkName('fileName', fileName)
    const extension = path.extname(fileName).toLowerCase()
    if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(extension)) {
      throw pathError('fileName', `must end in ${UPLOAD_EXTENSIONS.join(', ')}`)
    }
    if (declared !== undefined && declared > this.limit) throw this.tooLarge()
    if (body === undefined || declared === 0) throw badRequest('The body is empty: send the file as the raw body')
    const reader = readerOf(fileName)
    if (reader === undefined) throw pathError('fileName', `must end in ${UPLOAD_EXTENSIONS.join(', ')}`)
    const shown = `${datasourceName}/${fileName}`
    const dir = await this.folder(datasourceName)
    const target = path.join(dir, fileName)
    if ((await stat(target).catch(() => undefined))?.isDirectory()) {
      throw pathError('fileName', `is a folder under ${datasourceName}`)
    }
    const temporary = path.join(dir, `.upload-${randomUUID()}.part`)
    let size = 0
    try {
      // exclusive (never an existing file or link); flushed to disk before the rename
      const handle = await open(temporary, 'wx', 0o640)
      await pipeline(
        fromRequest(body),
        new Transform({
          transform: (chunk: Buffer, _encoding, done) => {
            size += chunk.length
            done(size > this.limit ? this.tooLarge() : null, chunk)
          },
        }),
        scanning(fileKindOf(fileName, reader), (problem) => refusedFile(shown, problem)),
        handle.createWriteStream({ flush: true }),
      )
      if (size === 0) throw badRequest('The body is empty: send the file as the raw body')
      await rename(temporary, target)
    } catch (err) {
      await rm(temporary, { force: true }).catch(() => {})
      throw err
    }
    return { path: shown, size }
  }

  /** `<root>/<name>`, created when missing; refused when it is a link or resolves elsewhere. */
  private async folder(name: string): Promise<string> {
    await mkdir(this.root, { recursive: true })
    const root = await realpath(this.root)
    const dir = path.join(root, name)
    await mkdir(dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err
    })
    const real = await realpath(dir)
    if (real !== dir || !isUnder(root, real) || !(await stat(real)).isDirectory()) {
      throw pathError('datasourceName', 'is not a folder under FILES_ROOT')
    }
    return real
  }

  private tooLarge(): ApiError {
    return new ApiError('PAYLOAD_TOO_LARGE', 413, `The file is larger than FILE_UPLOAD_LIMIT (${this.limit} bytes)`)
  }
}

function checkName(field: 'datasourceName' | 'fileName', value: string): void {
  if (!NAME.test(value) || value.includes('..')) {
    throw pathError(
      field,
      'must be 1-128 letters, digits, "_", "-" or "." (not first, no ".."), without path separators',
    )
  }
}

/**
 * The request body as a stream the pipeline may destroy without destroying the request (and
 * with it the socket the error answer goes out on); a request cut off mid-body fails it.
 */
function fromRequest(body: Readable): Readable {
  const pass = new PassThrough()
  const cutOff = () => {
    if (!body.readableEnded) pass.destroy(new Error('the upload was cut off'))
  }
  body.once('error', (err) => pass.destroy(err))
  body.once('close', cutOff)
  pass.once('close', () => {
    body.off('close', cutOff)
    body.unpipe(pass)
  })
  body.pipe(pass)
  return pass
}

/** A 400 naming a path parameter (`:fileName must …`), with `details.fields`. */
const pathError = (name: 'datasourceName' | 'fileName', problem: string): ApiError =>
  fieldsError([{ in: 'path', path: name, problem }])
