import type { RollupGrain } from '@strata/contract/rollups'

/** The partition of rows whose time bucket is null, and of a rollup without time. */
export const NULL_PARTITION = 'null'
export const ALL_PARTITION = 'all'

/**
 * A rollup's files are partitioned by the month its time bucket starts in (`2026-03`): a bucket
 * value (a date or a timestamp, as the connector returns it) to its partition.
 */
export function partitionOf(bucket: unknown): string {
  if (bucket === null || bucket === undefined) return NULL_PARTITION
  const text = bucket instanceof Date ? bucket.toISOString() : String(bucket)
  const match = /^(\d{4})-(\d{2})/.exec(text)
  return match ? `${match[1]}-${match[2]}` : NULL_PARTITION
}

/**
 * Where an incremental refresh starts: the first day of the month holding the bucket that
 * `windowStart` falls in (UTC). Every bucket with a row inside the window starts on or after
 * it, and every partition from its month on is rebuilt whole from rows at or after it, so the
 * rebuilt partitions hold whole buckets and the kept ones are untouched.
 */
export function refreshStart(windowStart: Date, grain: RollupGrain): Date {
  const d = new Date(Date.UTC(windowStart.getUTCFullYear(), windowStart.getUTCMonth(), windowStart.getUTCDate()))
  if (grain === 'week') d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7))
  let month = d.getUTCMonth()
  if (grain === 'quarter') month -= month % 3
  if (grain === 'year') month = 0
  return new Date(Date.UTC(d.getUTCFullYear(), month, 1))
}

/** Whether a partition is rebuilt by a refresh from `start` (months compare as text). */
export function rebuiltFrom(partition: string, start: Date | undefined): boolean {
  if (start === undefined) return true
  if (partition === NULL_PARTITION || partition === ALL_PARTITION) return false
  return partition >= start.toISOString().slice(0, 7)
}
