/**
 * The local cache of one awss3 datasource's objects: the data files (.csv, .parquet, .json … as
 * for local files) of `bucket` under `prefix`, one flat directory per set of credentials, each
 * file named by a hash of its key and ETag (local-names.ts) plus `manifest.json` (key → ETag,
 * size, file). A refresh lists the prefix again (ListObjectsV2, paged), downloads only the
 * objects whose ETag changed, writes the manifest atomically and deletes files no longer in it.
 *
 * Bounded: the first request of a refresh answers within the connect timeout (or the datasource
 * is unreachable); at most MAX_LISTED keys are listed and MAX_FILES data files kept; their total
 * size may not pass `maxBytes` (S3_CACHE_MAX_BYTES), checked on the listing before anything is
 * downloaded and again on the bytes received. Everything runs under a per-directory lock, and
 * DuckDB loads the files inside it (`use`), so a refresh never deletes a file mid-load.
 *
 * Each object is checked as it downloads (duckdb/file-checks.ts: size, line length, JSON nesting;
 * a gzip or zstd object when it is loaded): one refused object fails the whole refresh with a 400
 * naming it, and the previous manifest (or none) stays, so nothing it refused is ever loaded.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { fileKindOf, refusedFile, scanning } from '../duckdb/file-checks.js'
import type { FileCache, SourceFile, Sources } from '../duckdb/sources.js'
import { tableName } from '../duckdb/sources.js'
import { connectionError } from '../errors.js'
import type { AwsS3Credentials } from '../types.js'
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from './client.js'
import { translateS3Error } from './errors.js'
import { lastSegment, localName, readerOfKey } from './local-names.js'

/** Keys listed at most (data files or not): 100 pages of 1000. */
export const MAX_LISTED = 100_000
/** Data files (tables) kept at most. */
export const MAX_FILES = 1000
const MANIFEST = 'manifest.json'

interface Entry {
  readonly key: string
  readonly etag: string
  readonly size: number
  readonly file: string
}

interface Manifest {
  readonly objects: readonly Entry[]
}

export interface S3CacheOptions {
  /** The directory under which each datasource's cache lives (`<root>/s3/<hash>`). */
  readonly root: string
  /** Total size of the data files kept, in bytes. */
  readonly maxBytes: number
  /** The first request of each refresh answers within this (ms); also each request's idle limit. */
  readonly timeoutMs: number
}

/** One lock per directory in this process: a refresh and a load never interleave. */
const locks = new Map<string, Promise<unknown>>()

function locked<T>(dir: string, run: () => Promise<T>): Promise<T> {
  const before = locks.get(dir) ?? Promise.resolve()
  const result = before.catch(() => undefined).then(run)
  const tail = result.catch(() => undefined)
  locks.set(dir, tail)
  void tail.then(() => {
    if (locks.get(dir) === tail) locks.delete(dir)
  })
  return result
}

/**
 * The cache directory of these credentials: every field that decides what S3 returns (the secret
 * included, hashed), so a datasource reads only a cache its own credentials filled.
 */
export function cacheDirOf(root: string, credentials: AwsS3Credentials): string {
  const identity = JSON.stringify([
    credentials.endpoint ?? '',
    credentials.region,
    credentials.bucket,
    credentials.prefix ?? '',
    credentials.accessKeyId,
    credentials.secretAccessKey,
  ])
  return path.join(root, 's3', createHash('sha256').update(identity).digest('hex').slice(0, 40))
}

export class S3Cache implements FileCache {
  readonly #client: S3Client
  readonly #bucket: string
  readonly #prefix: string
  readonly #dir: string
  readonly #options: S3CacheOptions
  readonly #secrets: readonly string[]

  constructor(client: S3Client, credentials: AwsS3Credentials, options: S3CacheOptions) {
    if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes < 1) {
      throw new RangeError('the S3 cache size limit must be a positive whole number of bytes')
    }
    this.#client = client
    this.#bucket = credentials.bucket
    this.#prefix = credentials.prefix ?? ''
    this.#dir = cacheDirOf(options.root, credentials)
    this.#options = options
    this.#secrets = [credentials.secretAccessKey]
  }

  async check(): Promise<void> {
    await this.#call(
      (abortSignal) =>
        this.#client.send(new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: this.#prefix, MaxKeys: 1 }), {
          abortSignal,
        }),
      true,
    )
  }

  use<T>(load: (sources: Sources) => Promise<T>): Promise<T> {
    return locked(this.#dir, async () => {
      const cached = await this.#readManifest()
      const manifest = cached !== undefined && (await this.#complete(cached)) ? cached : await this.#sync(cached)
      return load(await this.#sources(manifest))
    })
  }

  refresh(): Promise<{ readonly changed: boolean }> {
    return locked(this.#dir, async () => {
      const before = await this.#readManifest()
      const after = await this.#sync(before)
      return { changed: before === undefined || !sameFiles(before, after) }
    })
  }

  /** Lists, downloads what changed, writes the manifest, deletes what it no longer names. */
  async #sync(before: Manifest | undefined): Promise<Manifest> {
    await mkdir(this.#dir, { recursive: true, mode: 0o700 })
    const listed = await this.#list()
    const total = listed.reduce((sum, o) => sum + o.size, 0)
    if (total > this.#options.maxBytes) {
      throw connectionError(
        `the data files under s3://${this.#bucket}/${this.#prefix.slice(0, 200)} total ${mib(total)}, more than this server's S3 cache limit of ${mib(this.#options.maxBytes)} (S3_CACHE_MAX_BYTES): narrow the prefix`,
      )
    }
    const previous = new Map((before?.objects ?? []).map((e) => [e.key, e]))
    const objects: Entry[] = []
    let budget = this.#options.maxBytes
    for (const object of listed) {
      const file = localName(object.key, object.etag)
      const old = previous.get(object.key)
      const kept = old !== undefined && old.etag === object.etag && (await this.#sizeOf(old.file)) === object.size
      if (!kept) await this.#download(object, file, Math.min(budget, object.size))
      budget -= object.size
      objects.push({ key: object.key, etag: object.etag, size: object.size, file })
    }
    const manifest: Manifest = { objects }
    const temporary = path.join(this.#dir, `.manifest-${randomBytes(6).toString('hex')}`)
    await writeFile(temporary, JSON.stringify(manifest), { mode: 0o600 })
    await rename(temporary, path.join(this.#dir, MANIFEST))
    await this.#removeAllBut(new Set(objects.map((o) => o.file)))
    return manifest
  }

  /** The data objects under the prefix, in key order, their ETags and sizes. */
  async #list(): Promise<{ key: string; etag: string; size: number }[]> {
    const out: { key: string; etag: string; size: number }[] = []
    let token: string | undefined
    let seen = 0
    let first = true
    do {
      const page = await this.#call(
        (abortSignal) =>
          this.#client.send(
            new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: this.#prefix, ContinuationToken: token }),
            { abortSignal },
          ),
        first,
      )
      first = false
      for (const object of page.Contents ?? []) {
        seen++
        const key = object.Key
        if (key === undefined || readerOfKey(key) === undefined) continue
        out.push({ key, etag: object.ETag ?? '', size: Math.max(0, Number(object.Size ?? 0)) })
      }
      if (seen > MAX_LISTED) {
        throw connectionError(`more than ${MAX_LISTED} objects under the prefix: narrow it`)
      }
      if (out.length > MAX_FILES) throw connectionError(`more than ${MAX_FILES} data files under the prefix: narrow it`)
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token !== undefined)
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  }

  /** Downloads one object into a temporary file, then renames it: a file present is whole. */
  async #download(object: { key: string; etag: string; size: number }, file: string, budget: number): Promise<void> {
    const temporary = path.join(this.#dir, `.download-${randomBytes(6).toString('hex')}`)
    try {
      await this.#call(async (abortSignal) => {
        const response = await this.#client.send(
          new GetObjectCommand({
            Bucket: this.#bucket,
            Key: object.key,
            ...(object.etag === '' ? {} : { IfMatch: object.etag }),
          }),
          { abortSignal },
        )
        const body = response.Body as NodeJS.ReadableStream | undefined
        if (body === undefined) throw connectionError(`S3 returned no body for an object of ${object.size} bytes`)
        let received = 0
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            received += chunk.length
            if (received > budget) {
              done(connectionError(`an object is larger than listed, past the S3 cache limit (S3_CACHE_MAX_BYTES)`))
            } else done(null, chunk)
          },
        })
        // checked as it arrives (file-checks.ts); gzip and zstd objects when they are loaded
        const reader = readerOfKey(object.key)
        const kind = reader === undefined ? undefined : fileKindOf(object.key, reader)
        const check =
          kind === undefined || kind.compression !== 'none'
            ? []
            : [scanning(kind, (problem) => refusedFile(`s3://${this.#bucket}/${object.key}`, problem))]
        await pipeline([body, counter, ...check, createWriteStream(temporary, { mode: 0o600 })])
        if (received !== object.size) {
          throw connectionError(
            `an object changed while it was being read (${received} bytes, listed ${object.size}): sync again`,
          )
        }
      }, false)
      await rename(temporary, path.join(this.#dir, file))
    } finally {
      await rm(temporary, { force: true })
    }
  }

  /**
   * One S3 call, its failure translated. `deadline`: the whole call (retries included) must
   * answer within the connect timeout; otherwise only each socket's idle limit applies.
   */
  async #call<T>(run: (abortSignal: AbortSignal | undefined) => Promise<T>, deadline: boolean): Promise<T> {
    try {
      return await run(deadline ? AbortSignal.timeout(this.#options.timeoutMs) : undefined)
    } catch (err) {
      throw translateS3Error(err, this.#options.timeoutMs, this.#secrets)
    }
  }

  async #readManifest(): Promise<Manifest | undefined> {
    const text = await readFile(path.join(this.#dir, MANIFEST), 'utf8').catch(() => undefined)
    if (text === undefined) return undefined
    try {
      const parsed = JSON.parse(text) as Manifest
      return Array.isArray(parsed.objects) ? parsed : undefined
    } catch {
      return undefined // a damaged manifest: fetched again
    }
  }

  /** Every file of the manifest is still there, whole. */
  async #complete(manifest: Manifest): Promise<boolean> {
    for (const entry of manifest.objects) if ((await this.#sizeOf(entry.file)) !== entry.size) return false
    return true
  }

  async #sizeOf(file: string): Promise<number | undefined> {
    const info = await stat(path.join(this.#dir, file)).catch(() => undefined)
    return info?.isFile() ? info.size : undefined
  }

  async #removeAllBut(keep: ReadonlySet<string>): Promise<void> {
    const names = await readdir(this.#dir)
    await Promise.all(
      names
        .filter((name) => name !== MANIFEST && !keep.has(name) && !name.startsWith('.'))
        .map((name) => rm(path.join(this.#dir, name), { force: true })),
    )
  }

  /** The manifest as the DuckDB reader's sources: one table per object, named as local files are. */
  async #sources(manifest: Manifest): Promise<Sources> {
    const root = await realpath(this.#dir)
    const taken = new Set<string>()
    const files: SourceFile[] = []
    for (const entry of manifest.objects) {
      const reader = readerOfKey(entry.key)
      if (reader === undefined) continue
      files.push({
        table: tableName(lastSegment(entry.key), taken),
        path: path.join(root, entry.file),
        reader,
        shown: `s3://${this.#bucket}/${entry.key}`,
      })
    }
    return { root, field: 'credentials.bucket', files, materialize: true }
  }
}

function sameFiles(a: Manifest, b: Manifest): boolean {
  if (a.objects.length !== b.objects.length) return false
  return a.objects.every((e, i) => e.key === b.objects[i]?.key && e.file === b.objects[i]?.file)
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}
