import type { ParquetColumn, ParquetPart, ParquetType } from '../../connectors/duckdb/parquet-writer.js'
import type { EngineHost } from '../../connectors/engine-host/supervisor.js'
import { streamRows } from '../../connectors/shared/stream.js'
import type { Connector, DataType, RowBatch, StreamResult } from '../../connectors/types.js'
import { ApiError } from '../../errors.js'
import type { Dialect } from '../../query/dialects/base.js'
import type { SemanticModel } from '../../query/model.js'
import { ROLLUP_COLUMN_TYPE } from '../../query/rollups/model.js'
import { failureText } from '../scheduling/failure-text.js'
import type { RollupPlan } from './definition.js'
import { RollupFileWriter } from './file-writer.js'
import { ALL_PARTITION, partitionOf, rebuiltFrom, refreshStart } from './partitions.js'
import { resultAlias, rollupColumns, rollupStatement } from './statement.js'
import type { RollupFileKey, RollupStorage } from './storage.js'
import { allTenantsFailed, type TenantFailure } from './tenant-failures.js'

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
  /** Rows read from the warehouse and appended at a time (default BUILD_BATCH_ROWS). */
  readonly batchRows?: number
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
  /** Milliseconds spent in each phase of the build (logged with the build: where the time goes). */
  readonly phases: BuildPhases
  /** DATABASE tenancy: the tenant databases whose part failed (their previous files kept), in the order read. */
  readonly failed: readonly TenantFailure[]
}

/** Milliseconds per phase of one build, summed over its tenant databases and partitions. */
export type BuildPhases = Record<string, number>

/**
 * The time of a build's phases: `add(name, ms)` adds a measured span; `lap(name)` adds the time
 * since the previous lap (none: only restarts the lap).
 */
function phaseClock(): { readonly phases: BuildPhases; add(name: string, ms: number): void; lap(name?: string): void } {
  const phases: BuildPhases = {}
  let last = performance.now()
  const add = (name: string, ms: number) => {
    phases[name] = Math.round(((phases[name] ?? 0) + ms) * 10) / 10
  }
  return {
    phases,
    add,
    lap(name) {
      const now = performance.now()
      if (name !== undefined) add(name, now - last)
      last = now
    },
  }
}

const PARQUET_TYPE: Readonly<Record<DataType, ParquetType>> = ROLLUP_COLUMN_TYPE

/** Rows handed from the warehouse to the engine process at a time (BuildLimits.batchRows). */
export const BUILD_BATCH_ROWS = 5_000

/** A read that fails this close to the build's deadline is the build's timeout (timers fire a little late or early). */
const DEADLINE_SLACK_MS = 100

/**
 * Builds a rollup: streams its GROUP BY from the datasource's connector (per tenant database
 * with DATABASE tenancy) and, batch by batch as the rows arrive, splits them by time partition
 * and sends them to the engine process's writer, which appends one batch while the connector
 * reads the next and this build splits it: the server holds at most two batches (the one split,
 * the next one read), the engine process's append a third. Once every row is in, each partition is written as
 * Parquet to a staging path and published under its final name. A build that fails (the
 * warehouse, ROLLUP_MAX_ROWS over all its rows, its deadline of `timeoutMs` over all its reads)
 * discards the writer before any file is staged: the previous files stay as they were.
 *
 * Under DATABASE tenancy each tenant database's part is its own: one whose read fails (a
 * missing table, a permission, its own statement timeout, a lost connection) has the rows it
 * appended dropped from the writer and keeps its previous files, and is listed in `failed`;
 * the others are written and published as usual. Only when every tenant database fails does
 * the build fail. An incremental build (the plan's `incrementalMs`, and files of the same
 * definition exist) reads only the rows from `refreshStart` on, rewrites those partitions and
 * keeps the older ones. Files of partitions that no longer have rows are removed after the new
 * ones are in place.
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
  const clock = phaseClock()
  const writer = new RollupFileWriter(engine, limits.memoryLimitMb)
  const files = new Map<string, RollupFileKey>()
  const kept: RollupPartition[] = []
  const stale: RollupPartition[] = []
  const written: RollupPartition[] = []
  const staged: { key: string; path: string }[] = []
  const failed: TenantFailure[] = []
  let total = 0
  const deadline = performance.now() + limits.timeoutMs
  const timedOut = (tenant: string | undefined, cause?: unknown) =>
    new ApiError(
      'QUERY_TIMEOUT',
      400,
      `rollup ${plan.name}: the build did not finish within ${limits.timeoutMs} ms (ROLLUP_BUILD_TIMEOUT_MS)${tenant === undefined ? '' : `, reading tenant database ${tenant}`}`,
      undefined,
      cause === undefined ? undefined : { cause },
    )
  const tooMany = () =>
    new ApiError(
      'QUERY_ERROR',
      400,
      `rollup ${plan.name} has more than ${limits.maxRows} rows (ROLLUP_MAX_ROWS); give it fewer dimensions or a coarser grain`,
    )
  try {
    const tenants = input.tenants ?? [undefined]
    for (const [t, tenant] of tenants.entries()) {
      const remainingMs = deadline - performance.now()
      if (remainingMs <= 0) throw timedOut(tenant)
      const statement = rollupStatement(plan, input.model, input.dialect, {
        ...(since ? { since } : {}),
        ...(tenant !== undefined ? { database: tenant } : {}),
      })
      const columns = rollupColumns(plan)
      const seen = new Set<string>()
      /** This tenant database's keys in the writer, and its rows: dropped if its part fails. */
      const keys: string[] = []
      let rows = 0
      /** An error of the build itself raised while handling a batch (ROLLUP_MAX_ROWS, the engine process). */
      let fatal: unknown
      /** The batch being handled: awaited before a failed part's keys are dropped. */
      let handling: Promise<unknown> = Promise.resolve()
      let typed: ParquetColumn[] | undefined
      /** Where each rollup column is in the result's rows (they are named by resultAlias). */
      let at: number[] = []
      let waited = performance.now()
      const onBatch = async (batch: RowBatch): Promise<void> => {
        const arrived = performance.now()
        clock.add('read', arrived - waited)
        total += batch.rows.length
        rows += batch.rows.length
        if (total > limits.maxRows) throw tooMany()
        if (typed === undefined) {
          const types = new Map(batch.columns.map((c) => [c.name, c.dataType]))
          const position = new Map(batch.columns.map((c, i) => [c.name, i]))
          at = columns.map((_, i) => position.get(resultAlias(i)) ?? -1)
          const missing = at.indexOf(-1)
          if (missing >= 0) {
            throw new ApiError(
              'QUERY_ERROR',
              400,
              `rollup ${plan.name}: the warehouse answered no ${resultAlias(missing)}`,
            )
          }
          typed = columns.map((name, i) => {
            const type = typeOf(name, types.get(resultAlias(i)), plan)
            const index = at[i] as number
            // the values of one column all come with an offset or none do
            const instant = type === 'TIMESTAMP' && batch.rows.some((r) => isInstant(r[index]))
            return { name, type: instant ? 'TIMESTAMPTZ' : type }
          })
        }
        const fileColumns = typed
        const batchParts: ParquetPart[] = split(batch.rows, at, plan.time !== undefined, since).map(
          ([partition, values]) => {
            const key = `${t}/${partition}`
            const fresh = !files.has(key)
            if (fresh) {
              files.set(key, fileKey(input, tenant, partition))
              keys.push(key)
              seen.add(partition)
            }
            return { key, ...coded(values), ...(fresh ? { columns: fileColumns } : {}) }
          },
        )
        const splitAt = performance.now()
        clock.add('split', splitAt - arrived)
        // sent once the append before it is in, not waited for: the engine process appends
        // while the connector reads and this build splits the next batch
        await writer.append(batchParts)
        waited = performance.now()
        clock.add('append', waited - splitAt)
      }
      const mine = input.previous.filter((p) => p.tenant === tenant)
      let result: StreamResult
      try {
        result = await streamRows(
          input.connector,
          statement.sql,
          {
            params: statement.params,
            timeoutMs: Math.ceil(remainingMs),
            maxRows: Math.max(1, limits.maxRows - total),
            batchRows: limits.batchRows ?? BUILD_BATCH_ROWS,
            timezone: 'UTC',
            ...(tenant !== undefined ? { database: tenant } : {}),
          },
          (batch) => {
            const work = onBatch(batch).catch((err: unknown) => {
              fatal = err
              throw err
            })
            handling = work.catch(() => undefined)
            return work
          },
        )
      } catch (err) {
        await handling
        if (fatal !== undefined) throw fatal
        // the build's time is up: a limit of the build, not of this tenant database
        if (performance.now() >= deadline - DEADLINE_SLACK_MS) throw timedOut(tenant, err)
        if (tenant === undefined) throw err
        // this tenant database alone failed: its rows are dropped, its previous files kept
        await writer.drop(keys)
        for (const key of keys) files.delete(key)
        total -= rows
        kept.push(...mine)
        failed.push({
          database: tenant,
          error: failureText(err),
          code: err instanceof ApiError ? err.code : 'QUERY_ERROR',
          keptFiles: mine.length > 0,
        })
        continue
      } finally {
        clock.add('read', performance.now() - waited)
      }
      const ended = performance.now()
      await writer.drain()
      clock.add('append', performance.now() - ended)
      if (result.truncated || total > limits.maxRows) throw tooMany()
      kept.push(...mine.filter((p) => !rebuiltFrom(p.partition, since)))
      stale.push(...mine.filter((p) => rebuiltFrom(p.partition, since) && !seen.has(p.partition)))
    }
    if (failed.length > 0 && failed.length === tenants.length) throw allTenantsFailed(failed)
    clock.lap()
    // every row is in: each partition's file to its staging path, then published
    const order = [...files.entries()].sort(([, a], [, b]) => fileOrder(a, b))
    for (const [key, file] of order) staged.push({ key, path: await storage.stage(file) })
    const finished = new Map((await writer.finish(staged)).map((f) => [f.key, f.rows]))
    clock.lap('write')
    while (staged.length > 0) {
      const { key, path } = staged[0] as { key: string; path: string }
      const file = files.get(key) as RollupFileKey
      const { bytes, location } = await storage.publish(path, file)
      staged.shift()
      written.push({
        ...(file.tenant !== undefined ? { tenant: file.tenant } : {}),
        partition: file.partition,
        rows: finished.get(key) ?? 0,
        bytes,
        location,
        builtAt,
      })
    }
  } catch (err) {
    await writer.discard()
    for (const { path } of staged) await storage.discard(path).catch(() => undefined)
    throw err
  }
  for (const p of stale) await storage.remove(p.location)
  clock.lap('publish')
  const partitions = [...kept, ...written].sort(fileOrder)
  return {
    partitions,
    rows: partitions.reduce((n, p) => n + p.rows, 0),
    bytes: partitions.reduce((n, p) => n + p.bytes, 0),
    rewritten: written.map((p) => p.partition),
    incremental,
    phases: clock.phases,
    failed,
  }
}

/**
 * A batch's rows as each partition's values, column by column as the engine process takes them,
 * in the order of the rollup's columns (`at`: where each is in a row; the time bucket first).
 * Rows of a bucket that began before the refresh start live in a kept partition: left out.
 */
function split(
  rows: readonly (readonly unknown[])[],
  at: readonly number[],
  timed: boolean,
  since: Date | undefined,
): [string, unknown[][]][] {
  const parts = new Map<string, unknown[][] | null>()
  // a bucket's partition, by the bucket's value (the same few dates or times recur in a batch)
  const partitions = new Map<unknown, string>()
  const bucket = at[0] as number
  const width = at.length
  for (const row of rows) {
    let partition = ALL_PARTITION
    if (timed) {
      const value = row[bucket]
      const known = partitions.get(value)
      if (known === undefined) {
        partition = partitionOf(value)
        if (typeof value !== 'object') partitions.set(value, partition)
      } else partition = known
    }
    let values = parts.get(partition)
    if (values === undefined) {
      values = rebuiltFrom(partition, since) ? at.map(() => []) : null
      parts.set(partition, values)
    }
    if (values === null) continue
    for (let i = 0; i < width; i++) (values[i] as unknown[]).push(row[at[i] as number] ?? null)
  }
  return [...parts].filter((p): p is [string, unknown[][]] => p[1] !== null)
}

/**
 * A part's columns as the engine process takes them: a column of texts (and NULLs) as its
 * distinct texts and an index per row into them (-1: NULL), so that a dimension's few texts
 * cross the process boundary once per batch instead of once per row; other columns as they are.
 */
function coded(columns: unknown[][]): Pick<ParquetPart, 'values' | 'texts'> {
  let texts: (string[] | null)[] | undefined
  const values = columns.map((column, i): unknown[] | Int32Array => {
    const codes = new Int32Array(column.length)
    const index = new Map<string, number>()
    const dictionary: string[] = []
    for (let r = 0; r < column.length; r++) {
      const v = column[r]
      if (v === null || v === undefined) {
        codes[r] = -1
        continue
      }
      if (typeof v !== 'string') return column
      let code = index.get(v)
      if (code === undefined) {
        code = dictionary.length
        dictionary.push(v)
        index.set(v, code)
      }
      codes[r] = code
    }
    texts ??= columns.map(() => null)
    texts[i] = dictionary
    return codes
  })
  return texts === undefined ? { values } : { values, texts }
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

function fileKey(input: BuildInput, tenant: string | undefined, partition: string): RollupFileKey {
  return {
    organizationId: input.organizationId,
    dashboardRowId: input.dashboardRowId,
    rollup: input.plan.name,
    ...(tenant !== undefined ? { tenant } : {}),
    partition,
  }
}

/** Files by tenant database, then partition. */
function fileOrder(a: { tenant?: string; partition: string }, b: { tenant?: string; partition: string }): number {
  return (a.tenant ?? '').localeCompare(b.tenant ?? '') || a.partition.localeCompare(b.partition)
}

/**
 * The Parquet type of an output column: as the warehouse typed it, else by its role. The time
 * bucket is a date or a timestamp whatever the connector calls it: a connector that answers the
 * bucket as text (MongoDB's `$dateToString`) would otherwise leave a column the reader's time
 * functions refuse.
 */
function typeOf(name: string, type: DataType | undefined, plan: RollupPlan): ParquetType {
  if (plan.time?.name === name && type !== 'date' && type !== 'datetime') {
    return plan.time.grain === 'hour' ? 'TIMESTAMP' : 'DATE'
  }
  if (type !== undefined && type !== 'unknown') return PARQUET_TYPE[type]
  const measure = plan.measures.find((m) => m.name === name)
  if (measure?.aggregate === 'count') return 'BIGINT'
  if (measure) return 'DOUBLE'
  return 'VARCHAR'
}
