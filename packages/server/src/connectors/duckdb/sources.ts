/**
 * Which files a csv or awss3 datasource serves, and the table (view) name of each. Pure file
 * system work: no DuckDB here. Every path is confined to FILES_ROOT (files-root.ts): by its text,
 * then by its real path, each time the files are listed; every path returned is a real path.
 */
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { badRequest } from '../../errors.js'
import { connectionError, notSupported } from '../errors.js'
import type { AwsS3Credentials, CsvCredentials } from '../types.js'
import { isUnder, outside, realOrFail, realRoot, recheck, relativePathProblem, resolveUnder } from './files-root.js'

export type Reader = 'csv' | 'parquet' | 'json'

export interface SourceFile {
  /** The view's name in schema `main`: the file stem, reduced to [A-Za-z0-9_]. */
  readonly table: string
  readonly path: string
  readonly reader: Reader
  /** How errors name the file (an S3 object's key); default its path under the root. */
  readonly shown?: string
}

const READERS: Readonly<Record<string, Reader>> = {
  '.csv': 'csv',
  '.tsv': 'csv',
  '.txt': 'csv',
  '.parquet': 'parquet',
  '.json': 'json',
  '.jsonl': 'json',
  '.ndjson': 'json',
}

/** Files a DuckDB reader understands, optionally gzip-compressed (`x.csv.gz`). */
export function readerOf(file: string): Reader | undefined {
  const name = file.toLowerCase().replace(/\.(gz|zst)$/, '')
  return READERS[path.extname(name)]
}

/** `2024 Sales-report.v2.csv` → `_2024_sales_report_v2`; unique within `taken`. */
export function tableName(file: string, taken: Set<string>): string {
  const base = path.basename(file).replace(/\.(gz|zst)$/i, '')
  const stem = base.slice(0, base.length - path.extname(base).length) || base
  let name = stem.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'table'
  if (/^[0-9]/.test(name)) name = `_${name}`
  name = name.slice(0, 60)
  let unique = name
  for (let i = 2; taken.has(unique.toLowerCase()); i++) unique = `${name}_${i}`
  taken.add(unique.toLowerCase())
  return unique
}

export function isLocalEndpoint(endpoint: string | undefined): boolean {
  return typeof endpoint === 'string' && endpoint.startsWith('file://')
}

/** The files of a datasource, and what confines them: the real FILES_ROOT and the field to name. */
export interface Sources {
  readonly root: string
  readonly field: 'credentials.path' | 'credentials.endpoint' | 'credentials.bucket'
  readonly files: readonly SourceFile[]
  /**
   * Load every file into memory, Parquet included: the files are a cache that a refresh may
   * replace or delete while the instance serves queries (awss3 over S3), so nothing may be read
   * from them again after loading.
   */
  readonly materialize?: boolean
}

/**
 * Files kept locally from a remote store (awss3 over S3: awss3/cache.ts), read by the same
 * DuckDB reader as local files. The connector reads them only inside `use`, so a refresh
 * never changes them mid-load.
 */
export interface FileCache {
  /** Proves the store is reachable with these credentials (one bounded request). */
  check(): Promise<void>
  /** Runs `load` over the cached files, fetching them first when nothing is cached yet. */
  use<T>(load: (sources: Sources) => Promise<T>): Promise<T>
  /** Lists the store again, fetches what changed, drops what is gone; `changed`: the files differ. */
  refresh(): Promise<{ readonly changed: boolean }>
}

/**
 * csv: `path`, relative to FILES_ROOT, is one file or a directory whose data files (not
 * recursively, links skipped) are the tables.
 */
export async function csvSources(credentials: CsvCredentials, filesRoot: string | undefined): Promise<Sources> {
  const field = 'credentials.path'
  const root = await realRoot(filesRoot)
  const target = await resolveUnder(root, credentials.path, field)
  const info = await statOrFail(target, credentials.path)
  const files = info.isFile() ? [target] : await listFiles(target, false)
  await recheck(root, files, field)
  return { root, field, files: build(files) }
}

/**
 * awss3 with a `file:///dir` endpoint, `dir` under FILES_ROOT (or FILES_ROOT itself): the
 * objects of `bucket` under `prefix` are the files of `dir/bucket/prefix…` (recursively, as S3
 * keys are, links skipped); a prefix may end mid-name like an S3 one.
 */
export async function s3Sources(credentials: AwsS3Credentials, filesRoot: string | undefined): Promise<Sources> {
  if (!isLocalEndpoint(credentials.endpoint)) {
    throw notSupported('awss3 datasources are supported only with a local file:///… endpoint for now')
  }
  const field = 'credentials.endpoint'
  const endpoint = credentials.endpoint as string
  let base: string
  try {
    base = fileURLToPath(endpoint)
  } catch {
    throw badRequest(`${field} must be a file:/// URL of a directory under FILES_ROOT`, { field })
  }
  if (base.includes('\u0000')) throw badRequest(`${field} must not contain a NUL character`, { field })
  const root = await realRoot(filesRoot)
  const realBase = await realOrFail(base, 'the endpoint directory')
  if (!isUnder(root, realBase, true)) throw outside(field, endpoint)
  if (!/^[A-Za-z0-9._-]{1,255}$/.test(credentials.bucket) || /^\.+$/.test(credentials.bucket)) {
    throw connectionError(`invalid bucket name "${credentials.bucket.slice(0, 80)}"`)
  }
  const bucket = await realOrFail(path.join(realBase, credentials.bucket), `bucket ${credentials.bucket}`)
  if (!isUnder(root, bucket)) throw outside('credentials.bucket', credentials.bucket)
  const prefix = credentials.prefix ?? ''
  const problem = prefix === '' ? undefined : relativePathProblem(prefix)
  if (problem) throw badRequest(`credentials.prefix ${problem}`, { field: 'credentials.prefix' })
  const files = await objectFiles(bucket, prefix)
  await recheck(root, files, field)
  return { root, field, files: build(files) }
}

/** The files of `bucket` (a real path) whose key starts with `prefix` (checked as text). */
async function objectFiles(bucket: string, prefix: string): Promise<string[]> {
  const target = path.join(bucket, prefix)
  const info = await stat(target).catch(() => undefined)
  if (info?.isFile()) return [await realOrFail(target, prefix)]
  if (info?.isDirectory()) {
    const dir = await realOrFail(target, prefix)
    if (!isUnder(bucket, dir, true)) throw outside('credentials.prefix', prefix)
    return listFiles(dir, true)
  }
  // A partial key prefix: `reports/2024-` matches `reports/2024-01.csv`.
  const dir = await realOrFail(path.dirname(target), prefix).catch(() => undefined)
  if (dir !== undefined && !isUnder(bucket, dir, true)) throw outside('credentials.prefix', prefix)
  const start = path.basename(target)
  const files = dir === undefined ? [] : await listFiles(dir, true).catch(() => [])
  const matched = files.filter((f) => path.relative(dir as string, f).startsWith(start))
  if (matched.length === 0) throw connectionError(`no objects under prefix "${prefix.slice(0, 200)}"`)
  return matched
}

async function statOrFail(file: string, shown: string) {
  try {
    return await stat(file)
  } catch (err) {
    throw connectionError(`${shown} does not exist or cannot be read`, err)
  }
}

async function listFiles(dir: string, recursive: boolean): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive })
  return entries
    .filter((e) => e.isFile() && readerOf(e.name) !== undefined)
    .map((e) =>
      path.join((e as { parentPath?: string; path?: string }).parentPath ?? (e as { path: string }).path, e.name),
    )
    .sort()
}

function build(files: readonly string[]): readonly SourceFile[] {
  const taken = new Set<string>()
  const out: SourceFile[] = []
  for (const file of files) {
    const reader = readerOf(file)
    if (reader) out.push({ table: tableName(file, taken), path: file, reader })
  }
  return out
}
