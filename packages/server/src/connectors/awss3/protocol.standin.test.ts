/**
 * awss3 over S3 against a minimal local stand-in (src/connectors/awss3/standin/protocol.ts) for what
 * s3rver cannot show: the SigV4 signature of each request, recomputed independently with
 * node:crypto (s3rver does not verify signatures), the secret absent from every request; S3's
 * error documents (wrong key, wrong secret, access denied, missing bucket) and foreign answers
 * translated through the real SDK; keys that no file system would store (`../../etc/x.csv`).
 * A stand-in: it proves the transport and our handling, never S3's semantics (s3rver does that:
 * connector.integration.test.ts).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught, closedPort, silentServer } from '../../../test/fixtures/net.js'
import { ApiError } from '../../errors.js'
import { createConnector } from '../registry.js'
import type { AwsS3Credentials, Connector } from '../types.js'
import { cacheDirOf } from './cache.js'
import { type Answer, errorAnswer, keyOf, listAnswer, type Recorded, startProtocolStandIn } from './standin/protocol.js'
import { expectedSignature, parseAuthorization, sha256 } from './standin/sigv4.js'

// AWS's documented example keys: never real.
const ACCESS_KEY_ID = 'AKIDEXAMPLE'
const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY'
const REGION = 'eu-central-1'
const BUCKET = 'examplebucket'

let work: string
const open: Connector[] = []

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'strata-s3-standin-'))
})
afterAll(async () => {
  await Promise.allSettled(open.map((c) => c.close()))
  await rm(work, { recursive: true, force: true })
})

const credentials = (endpoint: string, extra: Partial<AwsS3Credentials> = {}): AwsS3Credentials => ({
  name: 's3',
  bucket: BUCKET,
  region: REGION,
  accessKeyId: ACCESS_KEY_ID,
  secretAccessKey: SECRET,
  prefix: 'data/',
  endpoint,
  ...extra,
})

function connect(c: AwsS3Credentials, connectTimeoutMs = 2000): Connector {
  const connector = createConnector('awss3', c, { connectTimeoutMs, poolMax: 2, cacheDir: path.join(work, 'cache') })
  open.push(connector)
  return connector
}

/** A bucket of these objects: ListObjectsV2 lists them, GetObject returns them with their ETag. */
function bucketOf(objects: Record<string, string>): (r: Recorded) => Answer {
  const listed = Object.entries(objects).map(([key, body]) => ({ key, etag: `"${sha256(body)}"`, size: body.length }))
  return (request) => {
    const key = keyOf(request.url, BUCKET)
    if (key === undefined) return listAnswer(BUCKET, listed)
    const body = objects[key]
    if (body === undefined) return errorAnswer(404, 'NoSuchKey', 'The specified key does not exist.')
    return { status: 200, headers: { etag: `"${sha256(body)}"`, 'content-length': String(body.length) }, body }
  }
}

function connectionError(error: unknown): ApiError {
  expect(error).toBeInstanceOf(ApiError)
  expect([(error as ApiError).code, (error as ApiError).status]).toEqual(['DATASOURCE_CONNECTION_ERROR', 400])
  expect((error as ApiError).message).not.toContain(SECRET)
  return error as ApiError
}

describe('awss3 SigV4 signing (against a recording stand-in, signatures recomputed with node:crypto)', () => {
  it('signs every request (list and get) with AWS4-HMAC-SHA256 over the access key, date, region and s3; the secret never travels', async () => {
    const standIn = await startProtocolStandIn(bucketOf({ 'data/sales.csv': 'id,amount\n1,10\n' }))
    try {
      const c = connect(credentials(standIn.endpoint))
      await c.test()
      expect(await c.introspect()).toEqual([expect.objectContaining({ schema: 'main', name: 'sales' })])
      const kinds = standIn.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)
      expect(kinds).toContain(`GET /${BUCKET}/`) // ListObjectsV2, path-style
      expect(kinds).toContain(`GET /${BUCKET}/data/sales.csv`) // GetObject
      for (const request of standIn.requests) {
        const auth = parseAuthorization(String(request.headers.authorization))
        const day = String(request.headers['x-amz-date']).slice(0, 8)
        expect(auth).toMatchObject({
          algorithm: 'AWS4-HMAC-SHA256',
          accessKeyId: ACCESS_KEY_ID,
          date: day,
          region: REGION,
          service: 's3',
          terminator: 'aws4_request',
        })
        expect(auth.signedHeaders).toEqual(expect.arrayContaining(['host', 'x-amz-content-sha256', 'x-amz-date']))
        expect(request.headers['x-amz-content-sha256']).toBe(sha256(request.body))
        expect(auth.signature, request.url).toBe(expectedSignature(request, SECRET))
        // a different secret gives a different signature: the check is not vacuous
        expect(expectedSignature(request, `${SECRET}x`)).not.toBe(auth.signature)
        const raw = JSON.stringify({ url: request.url, headers: request.headers, body: request.body.toString() })
        expect(raw).not.toContain(SECRET)
        expect(raw).not.toContain(encodeURIComponent(SECRET))
      }
    } finally {
      await standIn.close()
    }
  })
})

describe("awss3 error translation (S3's error documents through the real SDK)", () => {
  const cases: [status: number, code: string, message: string, reason: RegExp][] = [
    [
      403,
      'InvalidAccessKeyId',
      'The AWS Access Key Id you provided does not exist in our records.',
      /InvalidAccessKeyId: the access key ID is not known to S3/,
    ],
    [
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      /SignatureDoesNotMatch: the secret access key does not match/,
    ],
    [403, 'AccessDenied', 'Access Denied', /AccessDenied: access denied/],
    [404, 'NoSuchBucket', 'The specified bucket does not exist', /NoSuchBucket: the bucket does not exist/],
  ]
  for (const [status, code, message, reason] of cases) {
    it(`${code} (${status}) → DATASOURCE_CONNECTION_ERROR naming it, the secret never shown`, async () => {
      const standIn = await startProtocolStandIn(() => errorAnswer(status, code, `${message} ${SECRET}`))
      try {
        const e = connectionError((await caught(connect(credentials(standIn.endpoint)).test())).error)
        expect(e.message).toMatch(reason)
        expect(e.message).toContain('***') // the secret, echoed by a hostile server, is redacted
      } finally {
        await standIn.close()
      }
    })
  }

  it("a foreign answer (a proxy's HTML page) → its status only, never its body", async () => {
    const page = '<html><body><h1>502 Bad Gateway</h1><script>alert(1)</script></body></html>'
    const standIn = await startProtocolStandIn(() => ({
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: page,
    }))
    try {
      const e = connectionError((await caught(connect(credentials(standIn.endpoint)).test())).error)
      expect(e.message).toMatch(/S3 answered HTTP 502/)
      expect(e.message).not.toMatch(/html|script|Bad Gateway/i)
    } finally {
      await standIn.close()
    }
  })

  it('a closed port and a silent server → connection refused / no answer within the connect timeout', async () => {
    const refused = connectionError(
      (await caught(connect(credentials(`http://127.0.0.1:${await closedPort()}`)).test())).error,
    )
    expect(refused.message).toMatch(/cannot reach S3: connection refused/)
    const silent = await silentServer()
    try {
      const c = connect(credentials(`http://127.0.0.1:${silent.port}`), 500)
      expect(connectionError((await caught(c.test())).error).message).toMatch(/S3 did not answer within 500 ms/)
    } finally {
      await silent.close()
    }
  })
})

describe('awss3 hostile object keys (keys no file system would store)', () => {
  it('`..`, absolute and backslash keys are cached under hashed flat names, tables named by the last segment', async () => {
    const objects = {
      'data/../../etc/passwd.csv': 'a\n1\n',
      'data/../../../tmp/strata-escape.csv': 'a\n2\n',
      'data//abs/root.csv': 'a\n3\n',
      'data/..': 'a\n4\n',
      'data/x/..\\..\\win.csv': 'a\n5\n',
      'data/<script>.json': '[{"a":6}]',
    }
    const standIn = await startProtocolStandIn(bucketOf(objects))
    try {
      const c = connect(credentials(standIn.endpoint, { prefix: 'data/' }))
      const tables = (await c.introspect()).map((t) => t.name).sort()
      expect(tables).toEqual(['passwd', 'root', 'script', 'strata_escape', 'win']) // `data/..` is no data file
      const sum = await c.execute(
        'select (select a from passwd) + (select a from strata_escape) + (select a from script) as s',
        { params: [], timeoutMs: 5000, maxRows: 10 },
      )
      expect(sum.rows).toEqual([{ s: 9 }])
      const dir = cacheDirOf(path.join(work, 'cache'), credentials(standIn.endpoint, { prefix: 'data/' }))
      const files = (await readdir(dir)).filter((f) => f !== 'manifest.json').sort()
      expect(files).toHaveLength(5)
      for (const f of files) expect(f).toMatch(/^[0-9a-f]{32}-[A-Za-z0-9_-]*\.(csv|json)$/)
      // nothing written anywhere else under the work directory, nor in /tmp by the `../` keys
      const everything = await readdir(work, { recursive: true })
      expect(everything.filter((f) => !f.startsWith('cache'))).toEqual([])
      expect(await readdir(tmpdir()).then((l) => l.filter((f) => f === 'strata-escape.csv'))).toEqual([])
    } finally {
      await standIn.close()
    }
  })
})
