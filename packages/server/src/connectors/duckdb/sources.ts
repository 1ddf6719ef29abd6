/**
 * Which files a csv or awss3 datasource serves, and the table (view) name of each. Pure file
 * system work: no DuckDB here. A path never leaves the directory the credentials name.
 */
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { connectionError, notSupported } from '../errors.js'
import type { AwsS3Credentials, CsvCredentials } from '../types.js'

export type Reader = 'csv' | 'parquet' | 'json'

export interface SourceFile {
  /** The view's name in schema `main`: the file stem, reduced to [A-Za-z0-9_]. */
  readonly table: string
  readonly path: string
  readonly reader: Reader
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

/** csv: `path` is one file or a directory whose data files (not recursively) are the tables. */
export async function csvSources(credentials: CsvCredentials): Promise<SourceFile[]> {
  const root = path.resolve(credentials.path)
  const info = await statOrFail(root, credentials.path)
  if (info.isFile()) return build([root])
  return build(await listFiles(root, false))
}

/**
 * awss3 with a `file:///dir` endpoint: the objects of `bucket` under `prefix` are the files of
 * `dir/bucket/prefix…` (recursively, as S3 keys are); a prefix may end mid-name like an S3 one.
 */
export async function s3Sources(credentials: AwsS3Credentials): Promise<SourceFile[]> {
  if (!isLocalEndpoint(credentials.endpoint)) {
    throw notSupported('awss3 datasources are supported only with a local file:///… endpoint for now')
  }
  let base: string
  try {
    base = fileURLToPath(credentials.endpoint as string)
  } catch (err) {
    throw connectionError('the endpoint is not a valid file:/// URL', err)
  }
  if (!/^[A-Za-z0-9._-]{1,255}$/.test(credentials.bucket) || /^\.+$/.test(credentials.bucket)) {
    throw connectionError(`invalid bucket name "${credentials.bucket.slice(0, 80)}"`)
  }
  const bucket = path.resolve(base, credentials.bucket)
  await statOrFail(bucket, `bucket ${credentials.bucket}`)
  const prefix = credentials.prefix ?? ''
  const target = path.resolve(bucket, prefix)
  if (target !== bucket && !target.startsWith(bucket + path.sep)) {
    throw connectionError('the prefix leads outside the bucket')
  }
  const info = await stat(target).catch(() => undefined)
  if (info?.isFile()) return build([target])
  if (info?.isDirectory()) return build(await listFiles(target, true))
  // A partial key prefix: `reports/2024-` matches `reports/2024-01.csv`.
  const dir = path.dirname(target)
  const start = path.basename(target)
  const files = await listFiles(dir, true).catch(() => [])
  const matched = files.filter((f) => path.relative(dir, f).startsWith(start))
  if (matched.length === 0) throw connectionError(`no objects under prefix "${prefix.slice(0, 200)}"`)
  return build(matched)
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

function build(files: readonly string[]): SourceFile[] {
  const taken = new Set<string>()
  const out: SourceFile[] = []
  for (const file of files) {
    const reader = readerOf(file)
    if (reader) out.push({ table: tableName(file, taken), path: file, reader })
  }
  return out
}
