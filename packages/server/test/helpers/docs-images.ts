/// <reference lib="dom" />
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'

/**
 * The screenshots docs/web-component.md shows, taken by the browser tests that walk to each
 * state: with `STRATA_DOCS_IMAGES=<folder>` (docs/images to retake them) a test writes
 * `<name>-<width>.png` there under the name the page uses; without it, nothing is written.
 */
export const DOCS_IMAGES = process.env.STRATA_DOCS_IMAGES

export interface DocsImageOptions {
  /** The widths to take, each with its own viewport (default 1440 and 390 px). */
  readonly widths?: readonly number[]
  /** One element instead of the page. */
  readonly target?: Locator
  /** Only the top of the page, this many px high (the page's first screen otherwise). */
  readonly height?: number
  /** The whole page, past the first screen. */
  readonly fullPage?: boolean
  /** Scrolled into view before the screen (or its `height`) is taken. */
  readonly focus?: Locator
}

const VIEWPORT_HEIGHT: Record<number, number> = { 390: 844 }

/**
 * Waits until the page is still: no card of any `<strata-dashboard>` loading, every ECharts
 * instance drawn with its animation over (the condition of ECharts' `finished` event), the fonts
 * loaded, and two frames painted since.
 */
export async function settled(page: Page): Promise<void> {
  const frames = () =>
    page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined)))))
  await frames()
  await page.waitForFunction(
    () => {
      type Chart = { isDisposed(): boolean; getZr(): { animation: { isFinished(): boolean } } }
      let still = true
      const walk = (root: Document | ShadowRoot) => {
        for (const el of root.querySelectorAll('*')) {
          if (el.getAttribute('part')?.split(' ').includes('card') && el.getAttribute('data-state') === 'loading')
            still = false
          const chart = (el as Element & { chart?: Chart }).chart
          if (
            chart &&
            typeof chart.getZr === 'function' &&
            !chart.isDisposed() &&
            !chart.getZr().animation.isFinished()
          )
            still = false
          if (el.shadowRoot) walk(el.shadowRoot)
        }
      }
      walk(document)
      return still
    },
    null,
    { timeout: 30_000, polling: 100 },
  )
  await page.evaluate(() => document.fonts.ready)
  await frames()
}

/** The page (or `target`) at each width, once settled, when STRATA_DOCS_IMAGES names a folder. */
export async function docsImage(page: Page, name: string, options: DocsImageOptions = {}): Promise<void> {
  if (!DOCS_IMAGES) return
  mkdirSync(DOCS_IMAGES, { recursive: true })
  const before = page.viewportSize()
  for (const width of options.widths ?? [1440, 390]) {
    await page.setViewportSize({ width, height: VIEWPORT_HEIGHT[width] ?? 1000 })
    await settled(page)
    const path = join(DOCS_IMAGES, `${name}-${width}.png`)
    if (options.target) {
      await options.target.scrollIntoViewIfNeeded()
      await settled(page)
      await options.target.screenshot({ path })
    } else {
      if (options.focus) {
        await options.focus.scrollIntoViewIfNeeded()
        await settled(page)
      }
      await page.screenshot({
        path,
        fullPage: options.fullPage === true,
        ...(options.height ? { clip: { x: 0, y: 0, width, height: options.height } } : {}),
      })
    }
  }
  if (before) await page.setViewportSize(before)
}
