import type { ParquetType, WriteParquetArgs } from '../../connectors/duckdb/parquet-writer.js'
import type { EngineHost } from '../../connectors/engine-host/supervisor.js'
import type { Connector, DataType } from '../../connectors/types.js'
import { ApiError } from '../../errors.js'
import type { Dialect } from '../../query/dialects/base.js'
import type { SemanticModel } from '../../query/model.js'
import { ROLLUP_COLUMN_TYPE } from '../../query/rollups/model.js'
import type { RollupPlan } from './definition.js'
import { ALL_PARTITION, partitionOf, rebuiltFrom, refreshStart } from './partitions.js'
import { resultAlias, rollupColumns, rollupStatement } from './statement.js'
import type { RollupFileKey, RollupStorage } from './storage.js'

/** One file a build left: a time partition (of one tenant database, with DATABASE tenancy). */
export interface RollupPartition {
  readonly tenant?: string
  readonly partition: string
  readonly rows: number
  readonly bytes: number
  readonly location: string
  readonly builtAt: string
}

export interface BuildLimits {
  /** A build whose GROUP BY returns more rows than this fails (ROLLUP_MAX_ROWS). */
  readonly maxRows: number
  readonly timeoutMs: number
  /** Memory of the DuckDB instance that writes the files (DUCKDB_MEMORY_LIMIT_MB). */
  readonly memoryLimitMb: number
}

export interface BuildInput {
  readonly plan: RollupPlan
  readonly model: SemanticModel
  readonly dialect: Dialect
  readonly connector: Connector
  /** DATABASE tenancy: the tenant databases, each built on its own; absent: one build. */
  readonly tenants?: readonly string[]
  /** The files of the previous build of the same definition (none: a full build). */
  readonly previous: readonly RollupPartition[]
  readonly organizationId: string
  readonly dashboardRowId: string
  readonly now: Date
}

export interface BuildResult {
  readonly partitions: readonly RollupPartition[]
  readonly rows: number
  readonly bytes: number
  /** The partitions rewritten (an incremental build leaves the others as they were). */
  readonly rewritten: readonly string[]
  readonly incremental: boolean
}

const PARQUET_TYPE: Readonly<Record<DataType, ParquetType>> = ROLLUP_COLUMN_TYPE

/**
 * Builds a rollup: runs its GROUP BY through the datasource's connector (per tenant database
 * with DATABASE tenancy), splits the rows by time partition, has the engine process write each
 * partition as Parquet to a staging path, and publishes it under its final name. An incremental
 * build (the plan's `incrementalMs`, and files of the same definition exist) reads only the rows
 * from `refreshStart` on, rewrites those partitions and keeps the older ones. Files of
 * partitions that no longer have rows are removed after the new ones are in place.
 */
export async function buildRollup(
  input: BuildInput,
  engine: EngineHost,
  storage: RollupStorage,
  limits: BuildLimits,
): Promise<BuildResult> {
  const { plan } = input
  const incremental = plan.incrementalMs !== undefined && plan.time !== undefined && input.previous.length > 0
  const since =
    incremental && plan.time
      ? refreshStart(new Date(input.now.getTime() - (plan.incrementalMs as number)), plan.time.grain)
      : undefined
  const builtAt = input.now.toISOString()
  const kept: RollupPartition[] = []
  const written: RollupPartition[] = []
  const stale: RollupPartition[] = []
  let total = 0
  for (const tenant of input.tenants ?? [undefined]) {
    const statement = rollupStatement(plan, input.model, input.dialect, {
      ...(since ? { since } : {}),
      ...(tenant !== undefined ? { database: tenant } : {}),
    })
    const result = await input.connector.execute(statement.sql, {
      params: statement.params,
      timeoutMs: limits.timeoutMs,
      maxRows: Math.max(1, limits.maxRows - total),
      timezone: 'UTC',
      ...(tenant !== undefined ? { database: tenant } : {}),
    })
    total += result.rows.length
    if (result.truncated || total > limits.maxRows) {
      throw new ApiError(
        'QUERY_ERROR',
        400,
        `rollup ${plan.name} has more than ${limits.maxRows} rows (ROLLUP_MAX_ROWS); give it fewer dimensions or a coarser grain`,
      )
    }
    const types = new Map(result.columns.map((c) => [c.name, c.dataType]))
    const columns = rollupColumns(plan)
    const aliases = columns.map((_, i) => resultAlias(i))
    const typed = columns.map((name, i) => {
      const alias = resultAlias(i)
      const type = typeOf(name, types.get(alias), plan)
      return { name, type: type === 'TIMESTAMP' && result.rows.some((r) => isInstant(r[alias])) ? 'TIMESTAMPTZ' : type }
    })
    // each partition's values column by column, as the engine process takes them
    const byPartition = new Map<string, unknown[][]>()
    const first = resultAlias(0)
    for (const row of result.rows) {
      // the time bucket is the first column
      const partition = plan.time ? partitionOf(row[first]) : ALL_PARTITION
      let values = byPartition.get(partition)
      if (values === undefined) {
        // a bucket that began before the refresh start lives in a kept partition
        if (!rebuiltFrom(partition, since)) continue
        values = aliases.map(() => [])
        byPartition.set(partition, values)
      }
      for (let i = 0; i < aliases.length; i++) values[i]?.push(row[aliases[i] as string] ?? null)
    }
    const mine = input.previous.filter((p) => p.tenant === tenant)
    kept.push(...mine.filter((p) => !rebuiltFrom(p.partition, since)))
    stale.push(...mine.filter((p) => rebuiltFrom(p.partition, since) && !byPartition.has(p.partition)))
    for (const [partition, values] of [...byPartition.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const key: RollupFileKey = {
        organizationId: input.organizationId,
        dashboardRowId: input.dashboardRowId,
        rollup: plan.name,
        ...(tenant !== undefined ? { tenant } : {}),
        partition,
      }
      const staged = await storage.stage(key)
      try {
        const args: WriteParquetArgs = { path: staged, columns: typed, values, memoryLimitMb: limits.memoryLimitMb }
        await engine.call('duckdb.writeParquet', args)
        const { bytes, location } = await storage.publish(staged, key)
        written.push({
          ...(tenant !== undefined ? { tenant } : {}),
          partition,
          rows: values[0]?.length ?? 0,
          bytes,
          location,
          builtAt,
        })
      } catch (err) {
        await storage.discard(staged)
        throw err
      }
    }
  }
  for (const p of stale) await storage.remove(p.location)
  const partitions = [...kept, ...written].sort(
    (a, b) => (a.tenant ?? '').localeCompare(b.tenant ?? '') || a.partition.localeCompare(b.partition),
  )
  return {
    partitions,
    rows: partitions.reduce((n, p) => n + p.rows, 0),
    bytes: partitions.reduce((n, p) => n + p.bytes, 0),
    rewritten: written.map((p) => p.partition),
    incremental,
  }
}

/**
 * A timestamp the warehouse gave with its offset (`2026-01-02T10:00:00+00:00`, PostgreSQL's
 * timestamptz): an instant, kept as TIMESTAMPTZ so a rollup read shows it with its offset as the
 * warehouse does; a timestamp without one (MySQL's DATETIME, ClickHouse, DuckDB's TIMESTAMP) is
 * a wall-clock time and stays TIMESTAMP.
 */
function isInstant(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    /^\d{4,}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:\d{2}){0,2})$/.test(value)
  )
}

/** The Parquet type of an output column: as the warehouse typed it, else by its role. */
function typeOf(name: string, type: DataType | undefined, plan: RollupPlan): ParquetType {
  if (type !== undefined && type !== 'unknown') return PARQUET_TYPE[type]
  if (plan.time?.name === name) return plan.time.grain === 'hour' ? 'TIMESTAMP' : 'DATE'
  const measure = plan.measures.find((m) => m.name === name)
  if (measure?.aggregate === 'count') return 'BIGINT'
  if (measure) return 'DOUBLE'
  return 'VARCHAR'
}
