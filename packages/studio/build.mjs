// Builds the studio's ES modules into dist/: the entry studio.js, which the server serves at
// /studio/studio.js, and hashed chunks (/studio/chunk-<hash>.js) that the entry loads on demand
// with import() (the rollups panel) or imports itself (code both share). The studio is its own
// bundle: nothing of it reaches the pages that load the web component.
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
// the web component's build and its measure
import { buildBrowserBundle } from '../embed/browser-bundle.mjs'
import { bundleSizes, kb } from '../embed/bundle-size.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const BUDGET_GZIP = 40 * 1024

const result = await buildBrowserBundle(here, 'studio')

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
