import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { gzipSync } from 'node:zlib'
import { startProcess } from '../lib/proc.mjs'
import { serverEnv } from '../lib/server-env.mjs'
import { median, round } from '../lib/stats.mjs'

export const DEMO_SCENARIOS = {
  'start-to-ready': 'Start to ready, embedded demo (fresh DATA_DIR, then seeded) and idle RSS',
  'web-component': 'Web component: bundle gzip size, demo drawn in headless Chromium',
}

const MB = 1024 * 1024
const CHROMIUM = '/usr/bin/chromium'

/**
 * DEMO=true, as `npm start` after install: time from spawn to /health/ready answering 200 on a
 * fresh DATA_DIR (seeds the demo) and again on the seeded one; RSS once idle after ready. The
 * second server then serves /demo to headless Chromium.
 */
export async function demoScenarios(ctx, record) {
  const { opts, log } = ctx
  const dataDir = mkdtempSync(join(opts.tmp, 'demo-'))
  const env = { ...serverEnv(ctx.opts), DATA_DIR: dataDir, DEMO: 'true' }
  const idleMs = opts.smoke ? 500 : 3000
  try {
    log('start to ready (DEMO=true)')
    const first = await startProcess({ script: ctx.mainJs, env })
    await sleep(idleMs)
    const firstRss = first.rss()
    await first.stop()
    const second = await startProcess({ script: ctx.mainJs, env })
    await sleep(idleMs)
    const secondRss = second.rss()
    try {
      if (ctx.wants('start-to-ready')) {
        const readyOk = first.readyMs <= 3000 && second.readyMs <= 3000
        const rssOk = firstRss <= 250 * MB && secondRss <= 250 * MB
        record('start-to-ready', {
          kind: 'startup',
          status: readyOk && rssOk ? 'pass' : 'fail',
          target: { readyMs: 3000, rssMB: 250 },
          scenario: {
            freshReadyMs: round(first.readyMs, 0),
            freshIdleRssMB: round(firstRss / MB, 1),
            seededReadyMs: round(second.readyMs, 0),
            seededIdleRssMB: round(secondRss / MB, 1),
          },
        })
      }
      if (ctx.wants('web-component')) {
        log('web component')
        record('web-component', await webComponent(ctx, second.url))
      }
    } finally {
      await second.stop()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function webComponent(ctx, base) {
  const bundle = join(ctx.root, 'packages/embed/dist/strata-embed.js')
  const target = { gzipKB: 200, drawnMs: 1500 }
  if (!existsSync(bundle)) {
    return {
      kind: 'web',
      status: 'skipped',
      target,
      note: 'packages/embed/dist/strata-embed.js is missing (not built)',
    }
  }
  // what a page loads up front: the entry and the chunks it imports statically (as build.mjs counts)
  const files = initialFiles(bundle)
  const code = files.map((f) => readFileSync(f))
  const rawKB = round(code.reduce((n, c) => n + c.length, 0) / 1024, 1)
  const gzipKB = round(code.reduce((n, c) => n + gzipSync(c, { level: 9 }).length, 0) / 1024, 1)
  const scenario = { rawKB, gzipKB, files: files.length }
  if (!existsSync(CHROMIUM)) {
    return {
      kind: 'web',
      status: 'skipped',
      target,
      scenario,
      note: `${CHROMIUM} is missing: the drawing time was not measured`,
    }
  }
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] })
  const loads = []
  try {
    for (let i = 0; i < (ctx.opts.smoke ? 1 : 5); i++) {
      // A new context per load: nothing cached by the browser, as for a first visit.
      const context = await browser.newContext()
      const page = await context.newPage()
      await page.goto(`${base}/demo`, { waitUntil: 'commit' })
      const handle = await page.waitForFunction(
        () => {
          const all = [...document.querySelectorAll('strata-dashboard')]
          if (all.length === 0) return false
          const states = all.map((el) => el.getAttribute('data-state'))
          if (states.some((s) => s === 'error' || s === 'expired')) return { failed: states }
          return states.every((s) => s === 'ready') ? { ms: performance.now(), count: all.length } : false
        },
        null,
        { polling: 'raf', timeout: 20_000 },
      )
      const value = await handle.jsonValue()
      await context.close()
      if (value.failed) throw new Error(`a strata-dashboard ended in state ${value.failed.join(', ')}`)
      loads.push(value.ms)
    }
  } finally {
    await browser.close()
  }
  // Judged on the first load: a cold server (DuckDB, result cache) and a cold browser.
  const firstMs = round(loads[0], 0)
  Object.assign(scenario, {
    drawnFirstMs: firstMs,
    drawnMedianMs: round(median(loads), 0),
    loads: loads.length,
  })
  return {
    kind: 'web',
    status: gzipKB <= target.gzipKB && firstMs <= target.drawnMs ? 'pass' : 'fail',
    target,
    scenario,
  }
}

/** The entry and every chunk it imports statically, transitively (`import … from "./chunk-….js"`, never `import(…)`). */
function initialFiles(entry) {
  const seen = new Set()
  const visit = (file) => {
    if (seen.has(file)) return
    seen.add(file)
    const code = readFileSync(file, 'utf8')
    for (const m of code.matchAll(/\bimport\s*(?:[^'"()]*?\bfrom\s*)?["'](\.\/chunk-[\w-]+\.js)["']/g)) {
      visit(join(dirname(file), m[1]))
    }
  }
  visit(entry)
  return [...seen]
}
