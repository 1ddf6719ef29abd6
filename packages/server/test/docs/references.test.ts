import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { headingAnchors, ROOT } from '../helpers/docs.js'

/**
 * The repository stands alone (issue 27, item 7): no file names a document that lives outside
 * it, and every pointer at a page of docs/ (`docs/tenancy.md#row-level-security` in a comment, a
 * markdown link in any README) names a page and a heading that exist. Comments and test titles
 * point at docs/ pages; docs/architecture.md is the map of the code.
 */

/** Documents that were never in the repository (spelt in pieces so that this file does not name them). */
const OUTSIDE = ['DESIGN', 'api-spec', 'CONVENTIONS'].map((name) => `${name}.md`)

const TEXT = /\.(?:[cm]?[jt]sx?|json|md|ya?ml|html|css|sh|txt|toml)$|(?:^|\/)(?:Dockerfile|Makefile|\.gitignore)$/

/** This file: its examples of what is caught are not references. */
const SELF = fileURLToPath(import.meta.url).slice(fileURLToPath(ROOT).length)

const SKIPPED = new Set(['node_modules', 'dist', '.git', '.data', 'test-results'])

/** Every file under `dir` (repository-relative), skipping SKIPPED folders. */
function walk(dir: string): string[] {
  return readdirSync(new URL(dir || '.', ROOT), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}${entry.name}`
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : walk(`${path}/`)
    return entry.isFile() ? [path] : []
  })
}

/** The tracked text files (git), or every file when there is no git; never node_modules or dist. */
function trackedFiles(): string[] {
  let files: string[]
  try {
    files = execFileSync('git', ['ls-files', '-z'], { cwd: fileURLToPath(ROOT), encoding: 'utf8', maxBuffer: 64 << 20 })
      .split('\0')
      .filter(Boolean)
  } catch {
    files = walk('')
  }
  return files.filter(
    (path) =>
      TEXT.test(path) && path !== SELF && !path.split('/').some((part) => part === 'node_modules' || part === 'dist'),
  )
}

/** A numbered section (`§2.8`) of some document; an RFC's sections are public and may be cited. */
const SECTION = /(?<!RFC \d+ )§ ?\d/

/** Lines of `text` that name a document outside the repository, or cite a section of one. */
export function outsideReferences(path: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      OUTSIDE.some((name) => line.includes(name)) || SECTION.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [],
    )
}

const anchorsOf = new Map<string, Set<string> | undefined>()
/** The heading anchors of a repository page, or undefined when there is no such page. */
function pageAnchors(page: string): Set<string> | undefined {
  if (!anchorsOf.has(page)) {
    const url = new URL(page, ROOT)
    anchorsOf.set(page, existsSync(url) ? headingAnchors(readFileSync(url, 'utf8')) : undefined)
  }
  return anchorsOf.get(page)
}

/**
 * Pointers at docs pages that do not resolve: `docs/x.md` and `docs/x.md#anchor` as written in
 * comments, strings and prose (from the repository root), and in markdown files every relative
 * link to a `.md` page (from the file's folder), with its anchor when it has one.
 */
export function brokenDocPointers(path: string, text: string, anchors = pageAnchors): string[] {
  const broken: string[] = []
  const check = (page: string, anchor: string | undefined, as: string) => {
    const known = page.startsWith('..') ? undefined : anchors(page)
    if (!known) broken.push(`${path}: ${as} (no page ${page})`)
    else if (anchor !== undefined && !known.has(anchor))
      broken.push(`${path}: ${as} (no heading #${anchor} in ${page})`)
  }
  // a pointer from the root, not the tail of a relative link (../docs/x.md) or of a longer path
  for (const [whole, page, anchor] of text.matchAll(/(?<![\w./-])(docs\/[\w.-]+\.md)(?:#([\w-]+))?/g)) {
    check(page as string, anchor, whole)
  }
  if (path.endsWith('.md')) {
    const prose = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '').replace(/`[^`\n]*`/g, '')
    for (const [whole, file, anchor] of prose.matchAll(/\]\(((?:[^)\s#:]*\.md)|)(?:#([^)\s]+))?\)/g)) {
      if (file === '' && anchor === undefined) continue
      const page = file === '' ? path : normalize(join(dirname(path), decodeURIComponent(file as string)))
      check(page, anchor, whole)
    }
  }
  return broken
}

describe('the repository stands alone', () => {
  const files = trackedFiles().map((path) => ({ path, text: readFileSync(new URL(path, ROOT), 'utf8') }))

  it('reads the tracked files', () => {
    expect(files.length).toBeGreaterThan(300)
    expect(SELF).toBe('packages/server/test/docs/references.test.ts')
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['README.md', 'docs/architecture.md', 'packages/server/src/app.ts']),
    )
  })

  it('names no document outside the repository', () => {
    const found = files.flatMap(({ path, text }) => outsideReferences(path, text))
    expect(found, 'point at the docs/ page that says it, or say it in place').toEqual([])
  })

  it('points only at docs pages and headings that exist', () => {
    const broken = files.flatMap(({ path, text }) => brokenDocPointers(path, text))
    expect(broken).toEqual([])
  })

  it('catches what it looks for', () => {
    const design = OUTSIDE[0] as string
    expect(outsideReferences('a.ts', `// ok\n// see ${design} §2.3`)).toEqual([`a.ts:2: // see ${design} §2.3`])
    expect(outsideReferences('a.ts', '// DESIGN §2.8\n// RFC 6749 §5.2')).toEqual(['a.ts:1: // DESIGN §2.8'])
    const pages = (page: string) =>
      page === 'docs/tenancy.md'
        ? new Set(['row-level-security'])
        : page === 'docs/x/README.md'
          ? new Set(['a'])
          : undefined
    expect(brokenDocPointers('a.ts', '// docs/tenancy.md#row-level-security, docs/tenancy.md', pages)).toEqual([])
    expect(brokenDocPointers('a.ts', '// docs/tenancy.md#rls and docs/nope.md', pages)).toEqual([
      'a.ts: docs/tenancy.md#rls (no heading #rls in docs/tenancy.md)',
      'a.ts: docs/nope.md (no page docs/nope.md)',
    ])
    const readme = '[t](../tenancy.md#rls) [u](#top) [w](#a) [x](../../y.md) `[v](#code)`'
    expect(brokenDocPointers('docs/x/README.md', readme, pages)).toEqual([
      'docs/x/README.md: ](../tenancy.md#rls) (no heading #rls in docs/tenancy.md)',
      'docs/x/README.md: ](#top) (no heading #top in docs/x/README.md)',
      'docs/x/README.md: ](../../y.md) (no page y.md)',
    ])
  })
})
