import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { S3Client } from '@aws-sdk/client-s3'
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
 * rollup removed here go with it.
 */
export class S3RollupStorage implements RollupStorage {
  readonly kind = 's3' as const
  private client: Promise<S3Client> | undefined

  constructor(
    readonly config: RollupS3Config,
    /** Local staging and read copies (DATA_DIR/rollups-s3). */
    private readonly cacheDir: string,
    private readonly timeoutMs = 30_000,
  ) {}

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
    const manifest = await this.manifest(folder)
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
    const manifest = await this.manifest(folder)
    const entry = manifest.files[location]
    if (entry === undefined) return
    const { [location]: _, ...rest } = manifest.files
    await this.writeManifest(folder, { files: rest })
    await this.deleteObject(entry.key)
  }

  async removeRollup(organizationId: string, dashboardRowId: string, rollup: string): Promise<void> {
    await this.removePrefix(this.rollupPrefix(organizationId, dashboardRowId, rollup))
    await rm(this.copiesOf(organizationId, dashboardRowId, rollup), { recursive: true, force: true })
  }

  async removeDashboard(organizationId: string, dashboardRowId: string): Promise<void> {
    await this.removePrefix(`${this.root()}${safeSegment(organizationId)}/${safeSegment(dashboardRowId)}/`)
    const copies = join(this.cacheDir, 'read', safeSegment(organizationId), safeSegment(dashboardRowId))
    await rm(copies, { recursive: true, force: true })
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
   * only: its S3 extension would be downloaded at run time). Downloaded once per object.
   */
  async localPath(location: string): Promise<string> {
    const [organizationId, dashboardRowId, rollup] = location.split('/') as [string, string, string]
    const folder = this.rollupPrefix(organizationId, dashboardRowId, rollup)
    const copies = this.copiesOf(organizationId, dashboardRowId, rollup)
    for (let attempt = 0; ; attempt++) {
      const manifest = await this.manifest(folder)
      const entry = manifest.files[location]
      if (entry === undefined) throw new Error(`no rollup file ${location}`)
      await this.prune(copies, manifest)
      const path = join(copies, copyName(entry.key))
      try {
        await stat(path)
        return path
      } catch {
        // not here yet
      }
      try {
        await this.download(entry.key, path)
        return path
      } catch (err) {
        // replaced between the manifest read and the download: read the manifest again
        if (attempt < 2 && (err as { name?: string }).name === 'NoSuchKey') continue
        throw err
      }
    }
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
      if (Date.now() - mtimeMs > COPY_GRACE_MS) await rm(path, { force: true })
    }
  }

  /** The object key of a published file now (what a reader of the bucket would fetch). */
  async objectKeyOf(location: string): Promise<string | undefined> {
    const [organizationId, dashboardRowId, rollup] = location.split('/') as [string, string, string]
    return (await this.manifest(this.rollupPrefix(organizationId, dashboardRowId, rollup))).files[location]?.key
  }

  private root(): string {
    return this.config.prefix === '' ? '' : `${this.config.prefix.replace(/\/+$/, '')}/`
  }

  private rollupPrefix(organizationId: string, dashboardRowId: string, rollup: string): string {
    return `${this.root()}${[organizationId, dashboardRowId, rollup].map(safeSegment).join('/')}/`
  }

  private s3(): Promise<S3Client> {
    this.client ??= (async () => {
      const { S3Client } = await import('@aws-sdk/client-s3')
      const { accessKeyId, secretAccessKey, endpoint, region } = this.config
      return new S3Client({
        region,
        ...(accessKeyId !== undefined && secretAccessKey !== undefined
          ? { credentials: { accessKeyId, secretAccessKey } }
          : {}),
        ...(endpoint === undefined ? {} : { endpoint, forcePathStyle: true }),
        followRegionRedirects: false,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: 3,
        requestHandler: { connectionTimeout: this.timeoutMs, requestTimeout: this.timeoutMs },
      })
    })()
    return this.client
  }

  private async manifest(folder: string): Promise<Manifest> {
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
