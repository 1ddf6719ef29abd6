// Builds the studio's ES modules into dist/: the entry studio.js, which the server serves at
// /studio/studio.js, and hashed chunks (/studio/chunk-<hash>.js) that the entry loads on demand
// with import() (the rollups panel) or imports itself (code both share). The studio is its own
// bundle: nothing of it reaches the pages that load the web component.
import { mkdir, readdir, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
// the web component's: Lit's css`` templates without the whitespace CSS ignores
import { bundleSizes, kb } from '../embed/bundle-size.mjs'
import { minifyCss } from '../embed/minify-css.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const outdir = join(here, 'dist')
const BUDGET_GZIP = 40 * 1024

await mkdir(outdir, { recursive: true })
// chunks of an earlier build (hashed names) would otherwise pile up
for (const f of await readdir(outdir)) if (/^chunk-.*\.js(\.map)?$/.test(f)) await rm(join(outdir, f))

const result = await build({
  plugins: [minifyCss],
  entryPoints: { studio: join(here, 'src', 'index.ts') },
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  splitting: true,
  absWorkingDir: here,
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

// What /studio loads up front, and the rest (loaded when its screen opens)
const { main, onDemand, imported, lazyFiles } = await bundleSizes(result.metafile, '/studio.js', here)
console.log(
  `dist/studio.js  ${kb(main.raw)} raw, ${kb(main.gzip)} gzip (budget ${kb(BUDGET_GZIP)})` +
    (imported > 0 ? ` with ${imported} chunk(s) it imports` : ''),
)
console.log(`on-demand chunk(s)  ${kb(onDemand.raw)} raw, ${kb(onDemand.gzip)} gzip (${lazyFiles} file(s))`)
if (main.gzip > BUDGET_GZIP) {
  console.error(`studio.js is over its gzip budget by ${kb(main.gzip - BUDGET_GZIP)}`)
  process.exit(1)
}
