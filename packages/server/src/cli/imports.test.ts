import { readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SRC = dirname(dirname(fileURLToPath(import.meta.url)))

/** The specifiers a module imports before it runs (`import … from`, `export … from`; not `import()`). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'/gms)].map((m) => m[1] ?? '')
}

/** Every module src/cli.ts loads at start-up, from the sources: relative path → its package imports. */
function startupGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  const visit = (file: string): void => {
    const name = relative(SRC, file)
    if (graph.has(name)) return
    const packages: string[] = []
    graph.set(name, packages)
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier.replace(/\.js$/, '.ts')))
      else packages.push(specifier)
    }
  }
  visit(join(SRC, 'cli.ts'))
  return graph
}

describe('the strata CLI at start-up', () => {
  // Each `strata …` is a new Node process: a library in its import graph (TypeBox alone takes
  // longer to load than the rest of the command) is paid on every call of every script that uses
  // it. `strata serve` loads the server with import() once it is asked for.
  it('loads only its own modules and Node built-ins', () => {
    const graph = startupGraph()
    expect([...graph.keys()]).toContain('cli/client.ts')
    const libraries = [...graph].flatMap(([file, packages]) =>
      packages.filter((p) => !p.startsWith('node:')).map((p) => `${file} → ${p}`),
    )
    expect(libraries).toEqual([])
  })
})
