import { randomUUID } from 'node:crypto'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
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
 * file or the new one, never half of one. The local-disk store is the one implemented; an S3
 * store (several instances sharing the files) implements the same four methods.
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
  for (const p of parts)
    if (p === '' || p === '.' || p === '..' || p.includes('/') || p.includes('\\')) {
      throw new Error(`unsafe rollup path segment ${JSON.stringify(p)}`)
    }
  return parts.join('/')
}

/**
 * Rollup files on local disk under `root` (DATA_DIR/rollups). A file is written beside its final
 * name (`.<name>.<uuid>.tmp`, same directory, same file system) and renamed over it: rename is
 * atomic, so a reader opens either the previous file or the new one.
 */
export class LocalRollupStorage implements RollupStorage {
  readonly kind = 'local' as const

  constructor(readonly root: string) {}

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
}
