// Builds the studio's ES modules into dist/: the entry studio.js, which the server serves at
// /studio/studio.js, and hashed chunks (/studio/chunk-<hash>.js) that the entry loads on demand
// with import() (the rollups panel) or imports itself (code both share). The studio is its own
// bundle: nothing of it reaches the pages that load the web component.
import { mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
// the web component's: Lit's css`` templates without the whitespace CSS ignores
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

const kb = (n) => `${(n / 1024).toFixed(1)} KB`
const sizeOf = async (files) => {
  let raw = 0
  let gzip = 0
  for (const f of files) {
    const code = await readFile(join(here, f))
    raw += code.length
    gzip += gzipSync(code, { level: 9 }).length
  }
  return { raw, gzip }
}
// What /studio loads up front: the entry and every chunk it imports statically (transitively);
// the rest (reached only through import()) loads when its screen opens.
const outputs = result.metafile.outputs
const entry = Object.keys(outputs).find((f) => f.endsWith('/studio.js'))
const initial = new Set()
const visit = (f) => {
  if (initial.has(f)) return
  initial.add(f)
  for (const i of outputs[f].imports) if (i.kind === 'import-statement') visit(i.path)
}
visit(entry)
const lazy = Object.keys(outputs).filter((f) => f.endsWith('.js') && !initial.has(f))
const main = await sizeOf([...initial])
const onDemand = await sizeOf(lazy)
console.log(
  `dist/studio.js  ${kb(main.raw)} raw, ${kb(main.gzip)} gzip (budget ${kb(BUDGET_GZIP)})` +
    (initial.size > 1 ? ` with ${initial.size - 1} chunk(s) it imports` : ''),
)
console.log(`on-demand chunk(s)  ${kb(onDemand.raw)} raw, ${kb(onDemand.gzip)} gzip (${lazy.length} file(s))`)
if (main.gzip > BUDGET_GZIP) {
  console.error(`studio.js is over its gzip budget by ${kb(main.gzip - BUDGET_GZIP)}`)
  process.exit(1)
}
