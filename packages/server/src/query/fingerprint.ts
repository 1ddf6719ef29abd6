import { createHash } from 'node:crypto'
import type { Metric } from './document.js'

/**
 * A metric definition's fingerprint, part of the compiled-statement cache key: a tenant's
 * version of a company metric shares its metricId (and the dashboard's version), so only the
 * definition tells their statements apart. Memoised per object (company metrics are cached).
 */
const prints = new WeakMap<Metric, string>()
export function fingerprint(metric: Metric): string {
  let print = prints.get(metric)
  if (print === undefined) {
    print = createHash('sha256').update(JSON.stringify(metric)).digest('base64url').slice(0, 22)
    prints.set(metric, print)
  }
  return print
}
