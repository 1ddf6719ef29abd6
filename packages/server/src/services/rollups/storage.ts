import { randomUUID } from 'node:crypto'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'

/** One file of a rollup: a time partition, for one tenant database with DATABASE tenancy. */
export interface RollupFileKey {
  readonly organizationId: string
  readonly dashboardRowId: string
  readonly rollup: string
  /** The tenant database (DATABASE tenancy); absent: every tenant's rows, told apart by the client column. */
  readonly tenant?: string
  /** `2026-03`, `null` or `all` (partitions.ts) */
  readonly partition: string
}

/**
 * Where rollup files live. A build writes each file to a local staging path (the engine process
 * writes it there), then publishes it under its final name in one step, so a reader sees the old
 * file or the new one, never half of one. Two implementations: the local disk (below) and S3
 * (s3-storage.ts), which several instances share.
 */
export interface RollupStorage {
  readonly kind: 'local' | 's3'
  /** A fresh local path to write the file of `key` to. */
  stage(key: RollupFileKey): Promise<string>
  /** Moves a staged file to its final place; its size and where it now is. */
  publish(staged: string, key: RollupFileKey): Promise<{ readonly bytes: number; readonly location: string }>
  /** Drops a staged file that will not be published (a failed build). */
  discard(staged: string): Promise<void>
  /** Removes a published file (a partition that no longer exists); absent already is fine. */
  remove(location: string): Promise<void>
  /** Removes every file of a rollup (it is no longer declared). */
  removeRollup(organizationId: string, dashboardRowId: string, rollup: string): Promise<void>
  /** Removes every file of a dashboard's rollups (the dashboard was deleted). */
  removeDashboard(organizationId: string, dashboardRowId: string): Promise<void>
  /**
   * A local path of a published file that DuckDB in the engine process can read: the file itself
   * on local disk, a downloaded copy of the object from S3.
   */
  localPath(location: string): Promise<string>
  /** The local folder every `localPath` is under: the only one the engine's DuckDB may read. */
  readonly readRoot: string
  /** The rollups that have files here, to find those whose state row is gone (a sweep). */
  stored(): Promise<readonly StoredRollup[]>
}

/** Whose files a folder (or key prefix) holds. */
export interface StoredRollup {
  readonly organizationId: string
  readonly dashboardRowId: string
  readonly rollup: string
}

/** One path segment of an id or a rollup name, refused when it could leave its folder. */
export function safeSegment(p: string): string {
  if (p === '' || p === '.' || p === '..' || p.includes('/') || p.includes('\\')) {
    throw new Error(`unsafe rollup path segment ${JSON.stringify(p)}`)
  }
  return p
}

/** A tenant database's name as one safe path segment (every other byte as `_xx`). */
export function tenantSegment(tenant: string): string {
  return `tenant=${[...Buffer.from(tenant, 'utf8')].map((b) => (/[A-Za-z0-9.-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `_${b.toString(16).padStart(2, '0')}`)).join('')}`
}

/** The file's path under the rollups root, `org/dashboard/rollup/[tenant=…/]partition.parquet`. */
export function fileLocation(key: RollupFileKey): string {
  const parts = [key.organizationId, key.dashboardRowId, key.rollup]
  if (key.tenant !== undefined) parts.push(tenantSegment(key.tenant))
  parts.push(`${key.partition}.parquet`)
  return parts.map(safeSegment).join('/')
}

/**
 * Rollup files on local disk under `root` (DATA_DIR/rollups). A file is written beside its final
 * name (`.<name>.<uuid>.tmp`, same directory, same file system) and renamed over it: rename is
 * atomic, so a reader opens either the previous file or the new one.
 */
export class LocalRollupStorage implements RollupStorage {
  readonly kind = 'local' as const

  constructor(readonly root: string) {}

  get readRoot(): string {
    return this.root
  }

  /** The absolute path of a published file. */
  pathOf(location: string): string {
    const path = join(this.root, ...location.split('/'))
    if (relative(this.root, path).startsWith(`..${sep}`)) throw new Error('rollup location outside the root')
    return path
  }

  async stage(key: RollupFileKey): Promise<string> {
    const final = this.pathOf(fileLocation(key))
    await mkdir(dirname(final), { recursive: true })
    return join(dirname(final), `.${key.partition}.${randomUUID()}.tmp`)
  }

  async publish(staged: string, key: RollupFileKey): Promise<{ bytes: number; location: string }> {
    const location = fileLocation(key)
    const { size } = await stat(staged)
    await rename(staged, this.pathOf(location))
    return { bytes: size, location }
  }

  async discard(staged: string): Promise<void> {
    await rm(staged, { force: true })
  }

  async remove(location: string): Promise<void> {
    await rm(this.pathOf(location), { force: true })
  }

  async localPath(location: string): Promise<string> {
    return this.pathOf(location)
  }

  async removeRollup(organizationId: string, dashboardRowId: string, rollup: string): Promise<void> {
    const dir = [organizationId, dashboardRowId, rollup].map(safeSegment).join('/')
    await rm(this.pathOf(dir), { recursive: true, force: true })
  }

  async removeDashboard(organizationId: string, dashboardRowId: string): Promise<void> {
    await rm(this.pathOf([organizationId, dashboardRowId].map(safeSegment).join('/')), { recursive: true, force: true })
  }

  async stored(): Promise<StoredRollup[]> {
    const out: StoredRollup[] = []
    for (const organizationId of await folders(this.root)) {
      for (const dashboardRowId of await folders(join(this.root, organizationId))) {
        for (const rollup of await folders(join(this.root, organizationId, dashboardRowId))) {
          out.push({ organizationId, dashboardRowId, rollup })
        }
      }
    }
    return out
  }
}

/** The sub-folders of `dir` (none when it does not exist). */
async function folders(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name)
  } catch {
    return []
  }
}
