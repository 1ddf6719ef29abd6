/**
 * A minimal S3 stand-in for tests of what s3rver cannot show: it records every request exactly
 * as received (to check SigV4 signing independently) and answers with what a test scripts, in
 * the documented S3 REST formats: a ListObjectsV2 result (`ListBucketResult` XML, any keys,
 * including ones no file system would store), an object body with its ETag, an S3 XML error
 * (`<Error><Code>…`) with its status, or any foreign body (a proxy's HTML page). Not a server
 * of S3 semantics: s3rver is (server.ts).
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Recorded {
  readonly method: string
  /** The raw request target: path and query as sent. */
  readonly url: string
  readonly headers: IncomingMessage['headers']
  readonly body: Buffer
}

export interface Answer {
  readonly status: number
  readonly headers?: Record<string, string>
  readonly body?: string | Buffer
}

export interface ProtocolStandIn {
  readonly endpoint: string
  readonly requests: Recorded[]
  close(): Promise<void>
}

const xml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')

/** A ListObjectsV2 answer listing `objects` (one page). */
export function listAnswer(bucket: string, objects: readonly { key: string; etag: string; size: number }[]): Answer {
  const contents = objects
    .map(
      (o) =>
        `<Contents><Key>${xml(o.key)}</Key><LastModified>2024-01-01T00:00:00.000Z</LastModified><ETag>${xml(o.etag)}</ETag><Size>${o.size}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
    )
    .join('')
  return {
    status: 200,
    headers: { 'content-type': 'application/xml' },
    body: `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xml(bucket)}</Name><Prefix></Prefix><KeyCount>${objects.length}</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>${contents}</ListBucketResult>`,
  }
}

/** S3's error document with its status. */
export function errorAnswer(status: number, code: string, message: string): Answer {
  return {
    status,
    headers: { 'content-type': 'application/xml' },
    body: `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${xml(code)}</Code><Message>${xml(message)}</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>`,
  }
}

/** The object key of a path-style request on `bucket` (`/bucket/key`), decoded; undefined for the bucket itself. */
export function keyOf(url: string, bucket: string): string | undefined {
  const pathPart = url.split('?')[0] ?? ''
  const prefix = `/${bucket}/`
  if (!pathPart.startsWith(prefix) || pathPart.length === prefix.length) return undefined
  return decodeURIComponent(pathPart.slice(prefix.length))
}

export async function startProtocolStandIn(answer: (request: Recorded) => Answer): Promise<ProtocolStandIn> {
  const requests: Recorded[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const recorded: Recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      }
      requests.push(recorded)
      const a = answer(recorded)
      res.writeHead(a.status, a.headers)
      res.end(a.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
