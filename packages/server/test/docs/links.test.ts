import { existsSync, statSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import type { RouteOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestContext } from '../helpers/app.js'
import {
  headingAnchors as anchors,
  configVariables,
  docPages,
  firstColumnNames,
  ROOT,
  readRepoFile,
} from '../helpers/docs.js'

/**
 * The documentation stands alone and keeps up with the code (issue 13): no page points at a
 * document outside the repository, every relative link and anchor resolves, the README's
 * configuration table is exactly what config.ts reads, and docs/api.md names every route the
 * app registers (and no route it does not).
 */

/** Every route the app registers, as Fastify announces it (the factory is wrapped, nothing else). */
const registered = vi.hoisted(() => [] as { method: string; url: string }[])
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>()
  const create = (options: Parameters<typeof actual.default>[0]) =>
    actual.default(options).addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) registered.push({ method, url: route.url })
    })
  return { ...actual, default: Object.assign(create, actual.default) }
})

const pages = docPages().map((path) => ({ path, text: readRepoFile(path) }))

/** The text with fenced code blocks and inline code blanked out (links there are not links). */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '').replace(/`[^`\n]*`/g, '')
}

describe('the documentation stands alone', () => {
  it('finds the pages', () => {
    expect(pages.map((p) => p.path)).toEqual(expect.arrayContaining(['README.md', 'docs/api.md']))
  })

  it('never points at the internal design document or an outside spec', () => {
    const found = pages.flatMap(({ path, text }) =>
      text
        .split('\n')
        .flatMap((line, i) =>
          /DESIGN\.md|\bthe (?:API )?spec\b|\bspec's\b|§/i.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [],
        ),
    )
    expect(found, 'describe the behaviour itself instead').toEqual([])
  })

  it('has relative links to files and anchors that exist', () => {
    const broken: string[] = []
    for (const { path, text } of pages) {
      for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const link = target as string
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue // http:, https:, mailto:
        const [file = '', anchor] = link.split('#')
        const resolved = file === '' ? path : normalize(join(dirname(path), decodeURIComponent(file)))
        const url = new URL(resolved, ROOT)
        if (resolved.startsWith('..') || !existsSync(url)) {
          broken.push(`${path}: ${link} (no such file)`)
          continue
        }
        if (anchor === undefined) continue
        if (statSync(url).isDirectory() || !resolved.endsWith('.md')) {
          broken.push(`${path}: ${link} (an anchor into something that is not a page)`)
        } else if (!anchors(readRepoFile(resolved)).has(anchor)) {
          broken.push(`${path}: ${link} (no heading #${anchor} in ${resolved})`)
        }
      }
    }
    expect(broken).toEqual([])
  })

  it('computes anchors as GitHub does', () => {
    const a = anchors(
      '# The API\n## 7. The whole setup with the CLI\n## `strata-ready` and `x`\n## Tenancy\n## Tenancy\n',
    )
    expect([...a]).toEqual(['the-api', '7-the-whole-setup-with-the-cli', 'strata-ready-and-x', 'tenancy', 'tenancy-1'])
  })
})

describe("README.md's configuration table", () => {
  const readme = readRepoFile('README.md')
  const start = readme.indexOf('## Configuration')
  const listed = firstColumnNames(readme.slice(start, readme.indexOf('\n## ', start + 1)))
  const variables = configVariables()

  it('lists every variable parseConfig reads', () => {
    expect(variables.length).toBeGreaterThanOrEqual(20)
    expect(
      variables.filter((name) => !listed.has(name)),
      'add a row for each to README.md',
    ).toEqual([])
  })

  it('lists no variable parseConfig does not read', () => {
    expect(
      [...listed].filter((name) => !variables.includes(name)),
      'remove these rows, or read them in config.ts',
    ).toEqual([])
  })
})

/** `METHOD /path` in backticks; a query string or a fragment after the path is not part of it. */
const ROUTE_MENTION = /`(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (\/[^`\s?#]*)[^`]*`/g

/** Whether a documented path names a registered route (`:param` and a final `*` match any segment text). */
function matches(routeUrl: string, documented: string): boolean {
  const route = routeUrl.split('/')
  const doc = documented.split('/')
  if (route.at(-1) === '*') return doc.length >= route.length - 1 && route.slice(0, -1).every((s, i) => same(s, doc[i]))
  return route.length === doc.length && route.every((s, i) => same(s, doc[i]))
}
const same = (route: string, doc: string | undefined) =>
  doc !== undefined && (route === doc || (route.startsWith(':') && doc !== ''))

describe('docs/api.md names every route', () => {
  let ctx: TestContext
  let routes: { method: string; url: string }[]
  beforeAll(async () => {
    // DEMO on: its two routes are registered too
    ctx = await createTestApp('sqlite', { DEMO: 'true' })
    const gets = new Set(registered.filter((r) => r.method === 'GET').map((r) => r.url))
    // every GET route answers HEAD too (Fastify adds them; docs/api.md says so once)
    routes = registered.filter((r) => !(r.method === 'HEAD' && gets.has(r.url)))
  })
  afterAll(async () => ctx?.close())

  it('collects the routes', () => {
    expect(routes.length).toBeGreaterThan(50)
    expect(routes).toContainEqual({ method: 'POST', url: '/api/v2/guest-token/create' })
  })

  it('documents each registered method and path in docs/api.md', () => {
    const api = readRepoFile('docs/api.md')
    const documented = new Set([...api.matchAll(ROUTE_MENTION)].map(([, m, p]) => `${m} ${p}`))
    const missing = routes.map((r) => `${r.method} ${r.url}`).filter((route) => !documented.has(route))
    expect(missing, 'add a row for each to docs/api.md, as `METHOD /path`').toEqual([])
  })

  it('names no route that does not exist, on any page', () => {
    const unknown = pages.flatMap(({ path, text }) =>
      [...text.matchAll(ROUTE_MENTION)]
        .filter(
          ([, method, p]) =>
            !routes.some(
              (r) => (r.method === method || (method === 'HEAD' && r.method === 'GET')) && matches(r.url, p as string),
            ),
        )
        .map(([mention]) => `${path}: ${mention}`),
    )
    expect(unknown).toEqual([])
  })
})
