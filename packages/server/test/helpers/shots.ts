/**
 * Screenshots of the browser tests on a host page: where they go, the phone they are taken on,
 * and the pair at 1440 and 390 px wide.
 */
import type { Locator, Page } from 'playwright-core'
import { settled } from './docs-images.js'

/** A phone: 390 × 844, touch, mobile. */
export const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }

/**
 * `shoot(page, name, focus?)`: screenshots `<dir>/<name>-1440.png` and `-390.png` (844 px high at
 * 390, 1000 at 1440), each once the page is still with `focus` scrolled into view; the page is
 * left at 1440 px.
 */
export function shooter(dir: string): (page: Page, name: string, focus?: Locator) => Promise<void> {
  return async (page, name, focus) => {
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 1000 })
      await focus?.scrollIntoViewIfNeeded()
      await settled(page)
      await page.screenshot({ path: `${dir}/${name}-${width}.png` })
    }
    await page.setViewportSize({ width: 1440, height: 1000 })
  }
}
