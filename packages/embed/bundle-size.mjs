// What a browser loads of a build, measured the same way for the web component (build.mjs) and the
// studio (packages/studio/build.mjs), each against its own gzip budget.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

export const kb = (n) => `${(n / 1024).toFixed(1)} KB`

const sizeOf = async (root, files) => {
  let raw = 0
  let gzip = 0
  for (const f of files) {
    const code = await readFile(join(root, f))
    raw += code.length
    gzip += gzipSync(code, { level: 9 }).length
  }
  return { raw, gzip }
}

/**
 * Sizes of an esbuild result (`metafile: true`): `main` is what a page loads up front (the entry
 * ending in `entrySuffix` and every chunk it imports statically, transitively), `onDemand` the rest
 * (reached only through import()). Paths in the metafile are relative to `root`.
 */
export async function bundleSizes(metafile, entrySuffix, root) {
  const outputs = metafile.outputs
  const entry = Object.keys(outputs).find((f) => f.endsWith(entrySuffix))
  const initial = new Set()
  const visit = (f) => {
    if (initial.has(f)) return
    initial.add(f)
    for (const i of outputs[f].imports) if (i.kind === 'import-statement') visit(i.path)
  }
  visit(entry)
  const lazy = Object.keys(outputs).filter((f) => f.endsWith('.js') && !initial.has(f))
  return {
    main: await sizeOf(root, [...initial]),
    onDemand: await sizeOf(root, lazy),
    imported: initial.size - 1,
    lazyFiles: lazy.length,
  }
}
