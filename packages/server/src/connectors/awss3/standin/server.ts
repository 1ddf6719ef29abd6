/**
 * A real S3-protocol server for tests: s3rver (@20minutes/s3rver, npm), run in a child process
 * on a free port of 127.0.0.1 (s3rver-process.cjs says why not in this one), storing its buckets
 * in a temporary directory. It speaks S3's REST API (ListObjectsV2 with continuation tokens,
 * GetObject, PutObject, DeleteObject, S3's XML errors such as NoSuchBucket) and knows one key
 * pair: an unknown access key ID is refused (InvalidAccessKeyId), but signatures are not
 * verified (s3rver-process.cjs says why): signing has its own test (src/connectors/awss3/protocol.standin.test.ts).
 * Objects are put through the official SDK, as a user would.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'

/** The one key pair s3rver knows (its built-in account). */
export const S3RVER_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const
export const S3RVER_REGION = 'us-east-1'

export interface LocalS3 {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string
  put(bucket: string, key: string, body: string | Uint8Array): Promise<void>
  remove(bucket: string, key: string): Promise<void>
  close(): Promise<void>
}

const SCRIPT = fileURLToPath(new URL('./s3rver-process.cjs', import.meta.url))

async function listening(child: ChildProcess): Promise<number> {
  const lines = createInterface({ input: child.stdout! })
  let errors = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString()
  })
  return new Promise((resolve, reject) => {
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port))
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}): ${errors.slice(0, 2000)}`)))
  })
}

export async function startLocalS3(buckets: readonly string[]): Promise<LocalS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'strata-s3rver-'))
  const child = spawn(process.execPath, ['--openssl-legacy-provider', SCRIPT, directory, ...buckets], {
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const port = await listening(child)
  const endpoint = `http://127.0.0.1:${port}`
  const client = new S3Client({
    endpoint,
    forcePathStyle: true,
    region: S3RVER_REGION,
    credentials: { ...S3RVER_KEYS }, // a copy: the SDK marks the object it is given
    requestChecksumCalculation: 'WHEN_REQUIRED',
  })
  return {
    endpoint,
    put: async (bucket, key, body) => {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }))
    },
    remove: async (bucket, key) => {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))
    },
    close: async () => {
      client.destroy()
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.stdin?.end()
        await exited
      }
      await rm(directory, { recursive: true, force: true })
    },
  }
}
