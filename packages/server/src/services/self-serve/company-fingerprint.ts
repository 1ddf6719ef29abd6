import { createHash } from 'node:crypto'
import type { Metric } from '../../query/document.js'

/**
 * A fingerprint of a company metric as the dashboard document declares it: SHA-256 of its JSON
 * with object keys sorted, so re-importing the same metric with its keys in another order is
 * the same version, and any change of a value (name, chart, query, filters, RLS, formats…) is
 * another. A tenant's copy stores the fingerprint it was made from; the load compares.
 */
export function companyFingerprint(metric: Metric): string {
  return createHash('sha256').update(sortedJson(metric)).digest('base64url').slice(0, 22)
}

function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
