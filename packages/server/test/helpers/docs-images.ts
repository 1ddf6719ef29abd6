/// <reference lib="dom" />
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'

/**
 * The screenshots the docs show (docs/web-component.md's in docs/images, docs/studio.md's in
 * docs/images/studio), taken by the browser tests that walk to each state: with
 * `STRATA_DOCS_IMAGES=<folder>` (`$PWD/docs/images` to retake them in place) a test writes each
 * image there under the name the page uses; without it, nothing is written unless the call names
 * a folder of its own (`otherwise`: the studio's go to `STUDIO_SHOTS/docs/`, to be looked at).
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
  /** A folder inside the images' folder (`studio`). */
  readonly folder?: string
  /** Write `<name>.png` as named (for one width) instead of `<name>-<width>.png`. */
  readonly exactName?: boolean
  /** The viewport's height at desktop widths (1000 px by default; a 390 px phone is 844 px high). */
  readonly desktopHeight?: number
  /** The images' folder when STRATA_DOCS_IMAGES is unset (by default nothing is written then). */
  readonly otherwise?: string
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

/**
 * The page (or `target`) at each width, once settled, into STRATA_DOCS_IMAGES (or `otherwise`),
 * under `folder` when one is named.
 */
export async function docsImage(page: Page, name: string, options: DocsImageOptions = {}): Promise<void> {
  const root = DOCS_IMAGES ?? options.otherwise
  if (!root) return
  const dir = options.folder ? join(root, options.folder) : root
  mkdirSync(dir, { recursive: true })
  const before = page.viewportSize()
  for (const width of options.widths ?? [1440, 390]) {
    await page.setViewportSize({ width, height: VIEWPORT_HEIGHT[width] ?? options.desktopHeight ?? 1000 })
    await settled(page)
    const path = join(dir, options.exactName ? `${name}.png` : `${name}-${width}.png`)
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
        fullPage: options.fullPage === true && !options.height,
        ...(options.height ? { clip: { x: 0, y: 0, width, height: options.height } } : {}),
      })
    }
  }
  if (before) await page.setViewportSize(before)
}
