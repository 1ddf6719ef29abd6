import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import type { ApiError } from '../../errors.js'
import { checkDataFile, FILE_LIMITS, FileScanner, fileKindOf } from './file-checks.js'

const json = fileKindOf('x.json', 'json')
const small = { maxBytes: 1000, maxLineBytes: 10, maxJsonDepth: 3 }

/** Issue 24 item 1: what no engine is handed (size, line length, JSON nesting). */
describe('data file checks', () => {
  it('JSON nesting counts arrays and objects outside strings, across chunks', () => {
    const scan = (chunks: string[]) => {
      const scanner = new FileScanner(json, small)
      for (const chunk of chunks) {
        const problem = scanner.push(Buffer.from(chunk))
        if (problem) return problem
      }
      return undefined
    }
    expect(scan(['[{"a":[1]}]'])).toBeUndefined()
    expect(scan(['[{"a":[[1]]}]'])).toMatch(/nest deeper than 3 levels \(at byte 7\)/)
    expect(scan(['[{"a":"[[[[{{{{"}]'])).toBeUndefined() // brackets inside a string
    expect(scan(['[{"a":"\\"[[[[', '"}]'])).toBeUndefined() // an escaped quote does not end it
    expect(scan(['[[', '[', '['])).toMatch(/nest deeper/) // split over chunks
    expect(scan(['[1]\n[2]\n[[[1]]]\n'])).toBeUndefined() // depth per value, not per file
  })

  it('line length (CSV, NDJSON) and size; Parquet only by size', () => {
    const csv = new FileScanner(fileKindOf('x.csv', 'csv'), small)
    expect(csv.push(Buffer.from('a,b\n123456789\n1234'))).toBeUndefined()
    expect(csv.push(Buffer.from('5678901'))).toMatch(/a line is longer than 10 bytes/)
    expect(new FileScanner(fileKindOf('x.ndjson', 'json'), small).push(Buffer.from('{"a":"0123456789"}'))).toMatch(
      /a line is longer/,
    )
    expect(new FileScanner(json, small).push(Buffer.from('{"a":"0123456789"}'))).toBeUndefined()
    const parquet = new FileScanner(fileKindOf('x.parquet', 'parquet'), small)
    expect(parquet.push(Buffer.alloc(900, '['))).toBeUndefined()
    expect(parquet.push(Buffer.alloc(101))).toMatch(/larger than 1000 bytes/)
    expect(FILE_LIMITS).toEqual({ maxBytes: 1024 ** 3, maxLineBytes: 1024 ** 2, maxJsonDepth: 64 })
  })

  describe('checkDataFile (streaming from disk)', () => {
    let dir: string
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'strata-checks-'))
    })
    afterAll(() => rm(dir, { recursive: true, force: true }))

    it('refuses the 60 KB deep JSON, plain or gzip (checked uncompressed), with a 400 naming the file', async () => {
      const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`
      await writeFile(path.join(dir, 'deep.json'), deep)
      await writeFile(path.join(dir, 'deep.json.gz'), gzipSync(deep))
      for (const name of ['deep.json', 'deep.json.gz']) {
        const { error } = await caught(checkDataFile(path.join(dir, name), fileKindOf(name, 'json'), `files/${name}`))
        expect([(error as ApiError).code, (error as ApiError).message]).toEqual([
          'INVALID_REQUEST_BODY',
          expect.stringContaining(
            `The data file files/${name} is refused: JSON arrays and objects nest deeper than 64`,
          ),
        ])
      }
    })

    it('a gzip file expanding past the size limit, broken gzip and zstd text are refused; good files pass', async () => {
      await writeFile(path.join(dir, 'bomb.csv.gz'), gzipSync(Buffer.alloc(5000, 'a\n')))
      await writeFile(path.join(dir, 'broken.csv.gz'), 'not gzip')
      await writeFile(path.join(dir, 'x.csv.zst'), 'whatever')
      await writeFile(path.join(dir, 'ok.csv'), 'a,b\n1,2\n')
      const problem = (name: string) =>
        checkDataFile(path.join(dir, name), fileKindOf(name, 'csv'), name, small).then(
          () => undefined,
          (err: Error) => err.message,
        )
      expect(await problem('bomb.csv.gz')).toMatch(/larger than 1000 bytes/)
      expect(await problem('broken.csv.gz')).toMatch(/not valid gzip/)
      expect(await problem('x.csv.zst')).toMatch(/zstd-compressed text cannot be checked/)
      expect(await problem('ok.csv')).toBeUndefined()
    })
  })
})
