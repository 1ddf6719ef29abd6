// Builds the ES modules the server serves under /sdk/: the entry strata-embed.js (what pages load and
// npm consumers import) and hashed chunks, among them the self-serve UI (metric builder, card menu),
// which the entry loads on demand with import() only when the token may use it.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildBrowserBundle } from './browser-bundle.mjs'
import { bundleSizes, kb } from './bundle-size.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const BUDGET_GZIP = 200 * 1024

const result = await buildBrowserBundle(here, 'strata-embed')

// What a page loads up front, and the rest (loaded on demand)
const { main, onDemand, imported, lazyFiles } = await bundleSizes(result.metafile, '/strata-embed.js', here)
const gzip = main.gzip
console.log(
  `dist/strata-embed.js  ${kb(main.raw)} raw, ${kb(main.gzip)} gzip (budget ${kb(BUDGET_GZIP)})` +
    (imported > 0 ? ` with ${imported} chunk(s) it imports` : ''),
)
console.log(
  `lazy self-serve chunk(s)  ${kb(onDemand.raw)} raw, ${kb(onDemand.gzip)} gzip (${lazyFiles} file(s), loaded on demand)`,
)
if (process.argv.includes('--analyze')) {
  const { analyzeMetafile } = await import('esbuild')
  console.log(await analyzeMetafile(result.metafile, { verbose: false }))
}
let tsc
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
} catch {
  console.warn('typescript is not installed: dist/types and dist/node skipped')
}
// Type declarations for npm consumers (HTMLElementTagNameMap, event details, theme/options shapes).
if (tsc && !process.argv.includes('--no-types')) {
  const run = spawnSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json')], { stdio: 'inherit' })
  if (run.status !== 0) process.exit(run.status ?? 1)
  console.log('dist/types/index.d.ts written')
}
// The DOM-free chart option builder as Node modules (`@strata/embed/chart-options`): the server's
// report rendering imports it, so reports draw charts from the same options as the browser. The root
// build runs the workspaces in order (contract, embed, server), so it is there before the server builds.
if (tsc) {
  const run = spawnSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.node.json')], { stdio: 'inherit' })
  if (run.status !== 0) process.exit(run.status ?? 1)
  console.log('dist/node/chart-options.js written')
}
if (gzip > BUDGET_GZIP) {
  console.error(`strata-embed.js is over its gzip budget by ${kb(gzip - BUDGET_GZIP)}`)
  process.exit(1)
}
