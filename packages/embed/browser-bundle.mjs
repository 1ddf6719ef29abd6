// The browser build of the web component (build.mjs) and of the studio (packages/studio/build.mjs):
// one minified ES module entry, <root>/src/index.ts as dist/<entryName>.js, and the hashed chunks it
// imports or loads on demand (dist/chunk-<hash>.js), with a metafile for measuring them.
import { mkdir, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { build } from 'esbuild'
// Lit's css`` templates without the whitespace CSS ignores
import { minifyCss } from './minify-css.mjs'

export async function buildBrowserBundle(root, entryName) {
  const outdir = join(root, 'dist')
  await mkdir(outdir, { recursive: true })
  // chunks of an earlier build (hashed names) would otherwise pile up
  for (const f of await readdir(outdir)) if (/^chunk-.*\.js(\.map)?$/.test(f)) await rm(join(outdir, f))
  return build({
    plugins: [minifyCss],
    entryPoints: { [entryName]: join(root, 'src', 'index.ts') },
    outdir,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    splitting: true,
    absWorkingDir: root,
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    platform: 'browser',
    tsconfig: join(root, 'tsconfig.json'),
    sourcemap: 'external',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  })
}
