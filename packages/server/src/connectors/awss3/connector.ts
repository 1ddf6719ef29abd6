/**
 * awss3 over S3 (any http(s):// endpoint, or AWS itself in `region`): the objects of `bucket`
 * under `prefix` are fetched into a local cache (cache.ts) and read by the DuckDB connector, each
 * data file a table of schema `main`, exactly as with a local file:/// mirror. `test()` lists the
 * prefix (the credentials and the bucket are checked by S3 itself), `introspect()` (create,
 * update, sync) refreshes the cache, `execute` reads what is cached and fetches only when nothing
 * is. This module is what the registry loads lazily: the AWS SDK loads with it.
 */
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DuckdbConnector } from '../duckdb/connector.js'
import { connectionError } from '../errors.js'
import type { AwsS3Credentials, Connector, ConnectorOptions } from '../types.js'
import { S3Cache } from './cache.js'
import { createS3Client } from './client.js'

/** The default total size of one datasource's cached files: 512 MiB (S3_CACHE_MAX_BYTES). */
export const DEFAULT_S3_CACHE_MAX_BYTES = 512 * 1024 * 1024

const BUCKET = /^[A-Za-z0-9._-]{1,255}$/

export function createS3Connector(credentials: AwsS3Credentials, options: ConnectorOptions): Connector {
  if (!BUCKET.test(credentials.bucket) || /^\.+$/.test(credentials.bucket)) {
    throw connectionError(`invalid bucket name "${credentials.bucket.slice(0, 80)}"`)
  }
  const client = createS3Client(credentials, options.connectTimeoutMs)
  const cache = new S3Cache(client, credentials, {
    root: options.cacheDir ?? path.join(tmpdir(), 'strata-cache'),
    maxBytes: options.s3CacheMaxBytes ?? DEFAULT_S3_CACHE_MAX_BYTES,
    timeoutMs: options.connectTimeoutMs,
  })
  const duckdb = new DuckdbConnector({ kind: 'cached', cache }, options)
  return {
    dialect: duckdb.dialect,
    test: () => duckdb.test(),
    introspect: (database) => duckdb.introspect(database),
    databases: () => duckdb.databases(),
    execute: (sql, executeOptions) => duckdb.execute(sql, executeOptions),
    close: async () => {
      await duckdb.close()
      client.destroy()
    },
  }
}
