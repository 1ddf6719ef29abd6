/**
 * Runs s3rver (@20minutes/s3rver, a real S3-protocol server) in a child process for tests:
 * `node --openssl-legacy-provider s3rver-process.cjs <directory> <bucket>…`. The legacy OpenSSL
 * provider is needed because s3rver encrypts ListObjectsV2 continuation tokens with DES, which
 * Node 17+ only offers with it: a flag the test process itself cannot take. Prints
 * `{"port":N}` once listening on 127.0.0.1; stops when its standard input closes (the test
 * process ended) or on SIGTERM.
 */
'use strict'
const S3rver = require('@20minutes/s3rver')

const [directory, ...buckets] = process.argv.slice(2)
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  // Its V4 check signs bucket-level requests (ListObjectsV2: `/bucket/?list-type=2`) without the
  // trailing slash that S3 and the SDK sign, so it would refuse every listing: key IDs are still
  // checked (InvalidAccessKeyId); signatures are proven by src/connectors/awss3/protocol.standin.test.ts.
  allowMismatchedSignatures: true,
  configureBuckets: buckets.map((name) => ({ name })),
})

server.run().then(
  ({ port }) => process.stdout.write(`${JSON.stringify({ port })}\n`),
  (err) => {
    process.stderr.write(`${err?.stack}\n`)
    process.exit(1)
  },
)
const stop = () => server.close().finally(() => process.exit(0))
process.stdin.on('end', stop)
process.stdin.resume()
process.on('SIGTERM', stop)
