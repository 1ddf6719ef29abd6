// Builds the studio's one ES module, dist/studio.js, which the server serves at /studio/studio.js.
// The studio is its own bundle: nothing of it reaches the pages that load the web component.
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const here = dirname(fileURLToPath(import.meta.url))
const outfile = join(here, 'dist', 'studio.js')
const BUDGET_GZIP = 40 * 1024

await build({
  entryPoints: [join(here, 'src', 'index.ts')],
  outfile,
  absWorkingDir: here,
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2020',
  platform: 'browser',
  tsconfig: join(here, 'tsconfig.json'),
  sourcemap: 'external',
  legalComments: 'none',
  logLevel: 'warning',
})

const code = await readFile(outfile)
const gzip = gzipSync(code, { level: 9 }).length
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
console.log(`dist/studio.js  ${kb(code.length)} raw, ${kb(gzip)} gzip (budget ${kb(BUDGET_GZIP)})`)
if (gzip > BUDGET_GZIP) {
  console.error(`studio.js is over its gzip budget by ${kb(gzip - BUDGET_GZIP)}`)
  process.exit(1)
}
