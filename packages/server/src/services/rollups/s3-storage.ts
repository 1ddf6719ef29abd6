import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { S3Client } from '@aws-sdk/client-s3'
import { LRUCache } from 'lru-cache'
import {
  fileLocation,
  type RollupFileKey,
  type RollupStorage,
  type StoredRollup,
  safeSegment,
  tenantSegment,
} from './storage.js'

/** Where rollups are kept on S3 (ROLLUP_S3_*, docs/rollups.md#storage). */
export interface RollupS3Config {
  readonly bucket: string
  /** Key prefix, without a trailing `/` ('' for the bucket's root). */
  readonly prefix: string
  readonly region: string
  /** An S3-compatible service (path-style addressing); absent: AWS itself. */
  readonly endpoint?: string | undefined
  /** Static keys; absent: the SDK's default chain (environment, instance or task role). */
  readonly accessKeyId?: string | undefined
  readonly secretAccessKey?: string | undefined
}

const MANIFEST = 'manifest.json'
/** A read copy of a replaced object is kept this long after its download, for queries that chose it. */
const COPY_GRACE_MS = 10 * 60_000
/**
 * How long a rollup's manifest is read from memory after it was fetched: another instance's
 * rebuild is seen after this at most (at once with Redis, whose bus event drops it); the same
 * bound as the ready-rollups view (ready.ts).
 */
export const MANIFEST_TTL_MS = 30_000
/** Manifests held in memory at most (one per rollup read lately). */
const MAX_MANIFESTS = 2000
/** Read copies kept on disk at most, in bytes, when ROLLUP_S3_READ_CACHE_MAX_BYTES does not say. */
export const READ_COPIES_MAX_BYTES = 1024 ** 3

export interface S3RollupStorageOptions {
  /** Each S3 request gives up after this long. */
  readonly timeoutMs?: number
  /** Read copies on disk at most (least recently read removed first). */
  readonly readCopiesMaxBytes?: number
  /** How long a fetched manifest is used without asking S3 again (MANIFEST_TTL_MS). */
  readonly manifestTtlMs?: number
}

/** A read copy's file name: objects never change under a key. */
const copyName = (key: string) => `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.parquet`

/** A rollup's manifest: each file's location (as the state rows name it) → the object holding it now. */
interface Manifest {
  readonly files: Record<string, { readonly key: string; readonly bytes: number }>
}

/**
 * Rollup files on S3, shared by every instance that names the same bucket and prefix. A build
 * writes each file locally (the engine process writes it), uploads it under a key of its own
 * (`<partition>.<uuid>.parquet`, which no reader knows yet), then switches the rollup's small
 * manifest object (`manifest.json`, one PUT, which S3 makes visible whole) to name it, and
 * deletes the object it replaced. A reader follows the manifest: it sees the previous file or
 * the new one, never half of one (one whose old object was deleted between its manifest read and
 * its download reads the manifest again). One builder writes a rollup's manifest at a time: the
 * build lease (scheduler.ts).
 *
 * Readers on this instance get a local copy (`localPath`): objects never change under a key, so
 * a copy is downloaded once into `cacheDir/read/<organization>/<dashboard>/<rollup>/` and kept
 * while the manifest names it (and ten minutes after, for queries that chose it); the copies of a
 * rollup removed here go with it, and all of them together stay under `readCopiesMaxBytes` (the
 * least recently read go first). The manifest itself is held in memory for MANIFEST_TTL_MS after
 * it was fetched, and dropped at once when a build of the dashboard's rollups starts or ends on
 * any instance (`forget`, on the bus's `rollup` event) or when a download finds its object gone:
 * a query whose copies are here makes no S3 request.
 */
export class S3RollupStorage implements RollupStorage {
  readonly kind = 's3' as const
  private client: Promise<S3Client> | undefined
  private readonly timeoutMs: number
  /** Each rollup's manifest (by its key prefix) as last fetched or written here. */
  private readonly manifests: LRUCache<string, Promise<Manifest>>
  /** Every read copy on disk (its path → bytes), least recently read first out. */
  private readonly copies: LRUCache<string, number>
  /** Copies a previous process left, put in `copies` before the first read. */
  private indexed: Promise<void> | undefined

  constructor(
    readonly config: RollupS3Config,
    /** Local staging and read copies (DATA_DIR/rollups-s3). */
    private readonly cacheDir: string,
    options: S3RollupStorageOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 30_000
    this.manifests = new LRUCache({ max: MAX_MANIFESTS, ttl: options.manifestTtlMs ?? MANIFEST_TTL_MS })
    const maxSize = Math.max(1, options.readCopiesMaxBytes ?? READ_COPIES_MAX_BYTES)
    this.copies = new LRUCache<string, number>({
      maxSize,
      // a copy larger than the whole budget still counts as the whole budget (never refused)
      sizeCalculation: (bytes) => Math.min(Math.max(1, bytes), maxSize),
      dispose: (_bytes, path, reason) => {
        if (reason === 'evict') void rm(path, { force: true })
      },
    })
  }

  /**
   * Forgets the manifests of a dashboard's rollups: one of them is being built or was built (on
   * any instance: the bus's `rollup` event), or the dashboard changed. The next read fetches them.
   */
  forget(dashboardRowId: string): void {
    for (const folder of [...this.manifests.keys()]) {
      if (folder.slice(this.root().length).split('/')[1] === dashboardRowId) this.manifests.delete(folder)
    }
  }

  /** The read copies on disk now, in bytes (what ROLLUP_S3_READ_CACHE_MAX_BYTES bounds). */
  get readCopiesBytes(): number {
    let total = 0
    for (const bytes of this.copies.values()) total += bytes
    return total
  }

  get readRoot(): string {
    return this.cacheDir
  }

  async stage(_key: RollupFileKey): Promise<string> {
    const dir = join(this.cacheDir, 'staging')
    await mkdir(dir, { recursive: true })
    return join(dir, `${randomUUID()}.parquet`)
  }

  async publish(staged: string, key: RollupFileKey): Promise<{ bytes: number; location: string }> {
    const { PutObjectCommand } = await import('@aws-sdk/client-s3')
    const s3 = await this.s3()
    const location = fileLocation(key)
    const { size } = await stat(staged)
    const folder = this.rollupPrefix(key.organizationId, key.dashboardRowId, key.rollup)
    const tenant = key.tenant === undefined ? '' : `${tenantSegment(key.tenant)}/`
    const objectKey = `${folder}${tenant}${safeSegment(key.partition)}.${randomUUID()}.parquet`
    await s3.send(new PutObjectCommand({ Bucket: this.config.bucket, Key: objectKey, Body: await readFile(staged) }))
    await rm(staged, { force: true })
    const manifest = await this.fetchManifest(folder)
    const replaced = manifest.files[location]?.key
    await this.writeManifest(folder, { files: { ...manifest.files, [location]: { key: objectKey, bytes: size } } })
    if (replaced !== undefined && replaced !== objectKey) await this.deleteObject(replaced)
    return { bytes: size, location }
  }

  async discard(staged: string): Promise<void> {
    await rm(staged, { force: true })
  }

  async remove(location: string): Promise<void> {
    const [organizationId, dashboardRowId, rollup] = location.split('/') as [string, string, string]
    const folder = this.rollupPrefix(organizationId, dashboardRowId, rollup)
    const manifest = await this.fetchManifest(folder)
    const entry = manifest.files[location]
    if (entry === undefined) return
    const { [location]: _, ...rest } = manifest.files
    await this.writeManifest(folder, { files: rest })
    await this.deleteObject(entry.key)
  }

  async removeRollup(organizationId: string, dashboardRowId: string, rollup: string): Promise<void> {
    const folder = this.rollupPrefix(organizationId, dashboardRowId, rollup)
    await this.removePrefix(folder)
    this.manifests.delete(folder)
    await this.dropCopies(this.copiesOf(organizationId, dashboardRowId, rollup))
  }

  async removeDashboard(organizationId: string, dashboardRowId: string): Promise<void> {
    await this.removePrefix(`${this.root()}${safeSegment(organizationId)}/${safeSegment(dashboardRowId)}/`)
    this.forget(dashboardRowId)
    await this.dropCopies(join(this.cacheDir, 'read', safeSegment(organizationId), safeSegment(dashboardRowId)))
  }

  /** Removes a folder of read copies and forgets them. */
  private async dropCopies(dir: string): Promise<void> {
    for (const path of [...this.copies.keys()]) if (isUnder(dir, path)) this.copies.delete(path)
    await rm(dir, { recursive: true, force: true })
  }

  async stored(): Promise<StoredRollup[]> {
    const out: StoredRollup[] = []
    const seen = new Set<string>()
    for (const key of await this.keys(this.root())) {
      const [organizationId, dashboardRowId, rollup] = key.slice(this.root().length).split('/')
      if (organizationId === undefined || dashboardRowId === undefined || rollup === undefined) continue
      const id = `${organizationId}/${dashboardRowId}/${rollup}`
      if (seen.has(id)) continue
      seen.add(id)
      out.push({ organizationId, dashboardRowId, rollup })
    }
    return out
  }

  /**
   * A local copy of a published file, for the engine process's DuckDB (which reads local files
   * only: its S3 extension would be downloaded at run time). Downloaded once per object; no S3
   * request while the manifest held in memory names an object whose copy is here.
   */
  async localPath(location: string): Promise<string> {
    const [organizationId, dashboardRowId, rollup] = location.split('/') as [string, string, string]
    const folder = this.rollupPrefix(organizationId, dashboardRowId, rollup)
    const copies = this.copiesOf(organizationId, dashboardRowId, rollup)
    this.indexed ??= this.indexCopies()
    await this.indexed
    for (let attempt = 0; ; attempt++) {
      // a second try (the object went) asks S3 for the manifest, whatever this instance holds
      if (attempt > 0) this.manifests.delete(folder)
      const manifest = await this.manifest(folder)
      const entry = manifest.files[location]
      if (entry === undefined) {
        if (attempt === 0) continue // a manifest held from before this file was published
        throw new Error(`no rollup file ${location}`)
      }
      const path = join(copies, copyName(entry.key))
      if (this.copies.get(path) !== undefined) return path
      try {
        await this.download(entry.key, path)
        this.copies.set(path, entry.bytes)
        return path
      } catch (err) {
        // replaced between the manifest read and the download: read the manifest again
        if (attempt < 2 && (err as { name?: string }).name === 'NoSuchKey') continue
        throw err
      }
    }
  }

  /** The read copies a previous process left on disk, oldest first, so the bound covers them too. */
  private async indexCopies(): Promise<void> {
    const root = join(this.cacheDir, 'read')
    let names: string[]
    try {
      names = (await readdir(root, { recursive: true })).map(String)
    } catch {
      return
    }
    const found: { path: string; bytes: number; at: number }[] = []
    for (const name of names) {
      if (!name.endsWith('.parquet')) continue
      const path = join(root, name)
      const s = await stat(path).catch(() => undefined)
      if (s?.isFile()) found.push({ path, bytes: s.size, at: s.mtimeMs })
    }
    for (const f of found.sort((x, y) => x.at - y.at)) this.copies.set(f.path, f.bytes)
  }

  /** This instance's folder of read copies of one rollup's objects. */
  private copiesOf(organizationId: string, dashboardRowId: string, rollup: string): string {
    return join(this.cacheDir, 'read', ...[organizationId, dashboardRowId, rollup].map(safeSegment))
  }

  /**
   * Drops read copies of objects the manifest no longer names, once they are older than
   * COPY_GRACE_MS (a query that chose one a moment ago may still open it).
   */
  private async prune(copies: string, manifest: Manifest): Promise<void> {
    const named = new Set(Object.values(manifest.files).map((f) => copyName(f.key)))
    let entries: string[]
    try {
      entries = await readdir(copies)
    } catch {
      return
    }
    for (const name of entries) {
      if (named.has(name) || !name.endsWith('.parquet')) continue
      const path = join(copies, name)
      const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: Date.now() }))
      if (Date.now() - mtimeMs > COPY_GRACE_MS) {
        this.copies.delete(path)
        await rm(path, { force: true })
      }
    }
  }

  /** The object key of a published file now (what a reader of the bucket would fetch), asked of S3. */
  async objectKeyOf(location: string): Promise<string | undefined> {
    const [organizationId, dashboardRowId, rollup] = location.split('/') as [string, string, string]
    return (await this.fetchManifest(this.rollupPrefix(organizationId, dashboardRowId, rollup))).files[location]?.key
  }

  private root(): string {
    return this.config.prefix === '' ? '' : `${this.config.prefix.replace(/\/+$/, '')}/`
  }

  private rollupPrefix(organizationId: string, dashboardRowId: string, rollup: string): string {
    return `${this.root()}${[organizationId, dashboardRowId, rollup].map(safeSegment).join('/')}/`
  }

  private s3(): Promise<S3Client> {
    this.client ??= (async () => {
      const { newS3Client } = await import('../../connectors/awss3/client.js')
      const { accessKeyId, secretAccessKey, endpoint, region } = this.config
      return newS3Client({
        region,
        endpoint,
        keys: accessKeyId !== undefined && secretAccessKey !== undefined ? { accessKeyId, secretAccessKey } : undefined,
        timeoutMs: this.timeoutMs,
        maxAttempts: 3,
      })
    })()
    return this.client
  }

  /**
   * The rollup's manifest as this instance holds it (fetched at most MANIFEST_TTL_MS ago, or
   * written here since): one GET when it is not held. A fetch prunes the copies it no longer names.
   */
  private manifest(folder: string): Promise<Manifest> {
    let held = this.manifests.get(folder)
    if (held === undefined) {
      held = this.fetchManifest(folder).then(async (m) => {
        const [organizationId, dashboardRowId, rollup] = folder.slice(this.root().length).split('/') as [
          string,
          string,
          string,
        ]
        await this.prune(this.copiesOf(organizationId, dashboardRowId, rollup), m)
        return m
      })
      this.manifests.set(folder, held)
      held.catch(() => {
        if (this.manifests.get(folder) === held) this.manifests.delete(folder)
      })
    }
    return held
  }

  /** The rollup's manifest as S3 holds it now (none yet: no files). */
  private async fetchManifest(folder: string): Promise<Manifest> {
    const { GetObjectCommand } = await import('@aws-sdk/client-s3')
    try {
      const res = await (await this.s3()).send(
        new GetObjectCommand({ Bucket: this.config.bucket, Key: `${folder}${MANIFEST}` }),
      )
      return JSON.parse((await res.Body?.transformToString('utf8')) ?? '{"files":{}}') as Manifest
    } catch (err) {
      if ((err as { name?: string }).name === 'NoSuchKey') return { files: {} }
      throw err
    }
  }

  private async writeManifest(folder: string, manifest: Manifest): Promise<void> {
    const { PutObjectCommand } = await import('@aws-sdk/client-s3')
    await (await this.s3()).send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: `${folder}${MANIFEST}`,
        Body: JSON.stringify(manifest),
        ContentType: 'application/json',
      }),
    )
    // the builder writes a rollup's manifest under its lease: what it wrote is what S3 holds
    this.manifests.set(folder, Promise.resolve(manifest))
  }

  private async download(key: string, path: string): Promise<void> {
    const { GetObjectCommand } = await import('@aws-sdk/client-s3')
    const res = await (await this.s3()).send(new GetObjectCommand({ Bucket: this.config.bucket, Key: key }))
    await mkdir(dirname(path), { recursive: true })
    const partial = `${path}.${randomUUID()}.tmp`
    try {
      await pipeline(res.Body as NodeJS.ReadableStream, createWriteStream(partial))
      await rename(partial, path)
    } finally {
      await rm(partial, { force: true })
    }
  }

  private async deleteObject(key: string): Promise<void> {
    const { DeleteObjectCommand } = await import('@aws-sdk/client-s3')
    await (await this.s3()).send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }))
  }

  private async removePrefix(prefix: string): Promise<void> {
    for (const key of await this.keys(prefix)) await this.deleteObject(key)
  }

  /** Every key under `prefix` (ListObjectsV2, paged). */
  private async keys(prefix: string): Promise<string[]> {
    const { ListObjectsV2Command } = await import('@aws-sdk/client-s3')
    const out: string[] = []
    let token: string | undefined
    do {
      const res = await (await this.s3()).send(
        new ListObjectsV2Command({
          Bucket: this.config.bucket,
          Prefix: prefix,
          ...(token === undefined ? {} : { ContinuationToken: token }),
        }),
      )
      for (const o of res.Contents ?? []) if (o.Key !== undefined) out.push(o.Key)
      token = res.IsTruncated ? res.NextContinuationToken : undefined
    } while (token !== undefined)
    return out
  }
}

/** Whether `path` is inside folder `dir`. */
function isUnder(dir: string, path: string): boolean {
  const r = relative(dir, path)
  return r !== '' && !r.startsWith(`..${sep}`) && r !== '..'
}
