/**
 * S3 object keys → what the cache stores locally. A key is any UTF-8 string up to 1024 bytes
 * (`../../etc/x.csv`, `a\b.csv`, control characters, `%2F` …): it never becomes a path. The local
 * file name is a hash of the key and its ETag, then a readable stem of [A-Za-z0-9_-] and the
 * reader's extension, all in one flat directory; the table name follows the local files' rules
 * (duckdb/sources.ts `tableName`) on the key's last segment.
 */
import { createHash } from 'node:crypto'
import { type Reader, readerOf } from '../duckdb/sources.js'

/** The extension DuckDB recognises the format and compression by, lower-cased: `.csv`, `.json.gz` … */
function extensionOf(key: string): string {
  const lower = key.toLowerCase()
  const compression = /\.(gz|zst)$/.exec(lower)?.[0] ?? ''
  const plain = lower.slice(0, lower.length - compression.length)
  const ext = /\.[a-z0-9]+$/.exec(plain)?.[0] ?? ''
  return `${ext}${compression}`
}

/** The key's last segment (after the last `/`): what a table is named after. */
export function lastSegment(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1)
}

/**
 * The local file name of one version (ETag) of an object: `<hash>-<stem><ext>`, only
 * [A-Za-z0-9_.-], never starting with a dot, at most ~110 characters. Different keys or
 * versions never share a name (the hash covers both).
 */
export function localName(key: string, etag: string): string {
  const hash = createHash('sha256').update(key).update('\u0000').update(etag).digest('hex').slice(0, 32)
  const ext = extensionOf(key)
  const segment = lastSegment(key)
  const stem = segment
    .slice(0, segment.length - ext.length)
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .slice(0, 60)
  return `${hash}-${stem}${ext}`
}

/** The reader of a key (by its extension, as for local files), or undefined: not a data file. */
export function readerOfKey(key: string): Reader | undefined {
  if (key.endsWith('/')) return undefined // a "folder" marker
  return readerOf(lastSegment(key))
}
