#!/usr/bin/env node
/**
 * `npm run fuzz`: the property-based fuzzer of packages/server/test/fuzz at volume (100,000
 * cases by default). Runs packages/server/test/fuzz/cli.ts with tsx; arguments pass through:
 *
 *   npm run fuzz                             # 100,000 cases, a fresh seed
 *   npm run fuzz -- --runs 20000 --seed 7    # reproduce a run (the seed is printed)
 *   npm run fuzz -- --by-operation           # the answers per operation too
 *   npm run fuzz -- --case-timeout-ms 5000   # an answer slower than this is a violation (15 s)
 *
 * Besides valid, mutated, hostile and raw bodies it nests JSON 100 to 20,000 levels deep
 * (arrays, objects, mixed, wide and deep) at every nested position of every body, in
 * JSON-carrying query parameters and bracket-nested query keys, and as whole bodies; a
 * JSON-carrying query parameter also gets malformed, huge and prototype-poisoning JSON text.
 * The CI test (packages/server/test/fuzz/fuzz.test.ts) runs 3,000 cases (FUZZ_RUNS).
 */
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const cli = join(root, 'packages', 'server', 'test', 'fuzz', 'cli.ts')
const { status, error } = spawnSync(process.execPath, ['--import', 'tsx', cli, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
})
if (error) {
  console.error(`fuzz: ${error.message}`)
  process.exit(1)
}
process.exit(status ?? 1)
