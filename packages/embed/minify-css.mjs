// An esbuild plugin the web component's build (build.mjs) and the studio's
// (packages/studio/build.mjs) share.
import { readFile } from 'node:fs/promises'

/**
 * Lit's css`` templates reach the bundle as written (indentation, comments): this collapses them
 * (comments out, whitespace runs to one space, none around braces, semicolons and commas), which
 * keeps the entries inside their budgets. Only the whitespace CSS ignores goes: no selector or value
 * changes (a space before `:` or `>` is kept, as it can mean a descendant).
 */
export const minifyCss = {
  name: 'minify-css-templates',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      if (!source.includes('css`')) return undefined
      const contents = source.replace(/css`([^`]*)`/g, (_, body) => {
        const css = body
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/\s+/g, ' ')
          .replace(/\s*([{};])\s*/g, '$1')
          .replace(/,\s+/g, ',')
          .trim()
        return `css\`${css}\``
      })
      return { contents, loader: 'ts' }
    })
  },
}
