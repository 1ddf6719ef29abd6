// Builds the one ES module the server serves at /sdk/strata-embed.js (and npm consumers import).
import { spawnSync } from 'node:child_process'
import { mkdir, readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const here = dirname(fileURLToPath(import.meta.url))
const outfile = join(here, 'dist', 'strata-embed.js')
const BUDGET_GZIP = 200 * 1024

await mkdir(dirname(outfile), { recursive: true })
const result = await build({
  entryPoints: [join(here, 'src', 'index.ts')],
  outfile,
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2020',
  platform: 'browser',
  tsconfig: join(here, 'tsconfig.json'),
  sourcemap: 'external',
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
})

const code = await readFile(outfile)
const gzip = gzipSync(code, { level: 9 }).length
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
console.log(`dist/strata-embed.js  ${kb(code.length)} raw, ${kb(gzip)} gzip (budget ${kb(BUDGET_GZIP)})`)
if (process.argv.includes('--analyze')) {
  const { analyzeMetafile } = await import('esbuild')
  console.log(await analyzeMetafile(result.metafile, { verbose: false }))
}
// Type declarations for npm consumers (HTMLElementTagNameMap, event details, theme/options shapes).
if (!process.argv.includes('--no-types')) {
  let tsc
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  } catch {
    console.warn('typescript is not installed: dist/types skipped')
  }
  if (tsc) {
    const run = spawnSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json')], { stdio: 'inherit' })
    if (run.status !== 0) process.exit(run.status ?? 1)
    console.log('dist/types/index.d.ts written')
  }
}
if (gzip > BUDGET_GZIP) {
  console.error(`strata-embed.js is over its gzip budget by ${kb(gzip - BUDGET_GZIP)}`)
  process.exit(1)
}
