import { readdirSync, readFileSync } from 'node:fs'
import { parseConfig } from '../../src/config.js'

/** The repository root, for reading the documentation. */
export const ROOT = new URL('../../../../', import.meta.url)

export const readRepoFile = (path: string): string => readFileSync(new URL(path, ROOT), 'utf8')

/** The user-facing pages: README.md, docs/**\/*.md and examples/**\/*.md, as repository paths. */
export function docPages(): string[] {
  const under = (dir: string) =>
    readdirSync(new URL(dir, ROOT), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.md') && !name.split('/').includes('node_modules'))
      .map((name) => `${dir}${name}`)
  return ['README.md', ...under('docs/'), ...under('examples/')].sort()
}

/** The backticked names in the first column of the markdown table rows of `text`. */
export function firstColumnNames(text: string): Set<string> {
  const names = new Set<string>()
  for (const line of text.split('\n')) {
    const cell = /^\|([^|]*)\|/.exec(line)?.[1]
    for (const [, name] of cell?.matchAll(/`([A-Z][A-Z0-9_]*)`/g) ?? []) names.add(name as string)
  }
  return names
}

/** Every environment variable parseConfig reads: recorded on the way, plus named in its source. */
export function configVariables(): string[] {
  const seen = new Set<string>()
  const recording = (seed: Record<string, string>) =>
    new Proxy(seed, {
      get(target, name) {
        if (typeof name === 'string') seen.add(name)
        return target[name as string]
      },
    })
  parseConfig(recording({}))
  parseConfig(
    recording({
      DATABASE_URL: 'postgres://u@h/db',
      REDIS_URL: 'redis://h',
      ADMIN_EMAIL: 'a@b.co',
      ADMIN_PASSWORD: 'x',
    }),
  )
  // variables read only on some paths show up in the source as `env, 'NAME'`, `limit('NAME'`,
  // `env.NAME` or `env['NAME']`
  const source = readFileSync(new URL('../../src/config.ts', import.meta.url), 'utf8')
  for (const [, quoted, dotted] of source.matchAll(
    /(?:env, |limit\(|env\[)'([A-Z][A-Z0-9_]*)'|env\.([A-Z][A-Z0-9_]*)\b/g,
  )) {
    seen.add((quoted ?? dotted) as string)
  }
  return [...seen].filter((name) => /^[A-Z][A-Z0-9_]*$/.test(name)).sort()
}

/** GitHub's heading anchors (github-slugger): lower case, punctuation dropped, spaces → hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '')
  for (const [, heading] of withoutFences.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const text = (heading as string).replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-')
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    out.add(n === 0 ? base : `${base}-${n}`)
  }
  return out
}
