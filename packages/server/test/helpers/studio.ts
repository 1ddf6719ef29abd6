/// <reference lib="dom" />
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { expect } from 'vitest'
import type { DocsImageOptions } from './docs-images.js'

/** Where the studio's screenshots go (looked at by hand; docs/studio.md shows some of them). */
export const STUDIO_SHOTS = process.env.STUDIO_SHOTS ?? '/tmp/shots-studio'
/** The two widths every studio screen is checked at: a desktop, and a phone. */
export const WIDTHS = [1440, 390] as const

/** Screenshots of the page at both widths: `<name>-1440.png` and `<name>-390.png`. */
export async function shootBoth(page: Page, name: string): Promise<void> {
  mkdirSync(STUDIO_SHOTS, { recursive: true })
  const before = page.viewportSize() ?? { width: 1440, height: 900 }
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.screenshot({ path: join(STUDIO_SHOTS, `${name}-${width}.png`), fullPage: true })
    // nothing may be wider than the viewport (no sideways scrolling of the page itself)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow, `${name} at ${width}px scrolls sideways`).toBeLessThanOrEqual(0)
  }
  await page.setViewportSize(before)
}

/**
 * How docsImage() (test/helpers/docs-images.ts) takes the pictures of docs/studio.md: the whole
 * page at 1440 px (a 900 px high window), written as `<name>.png` to `studio/` in
 * STRATA_DOCS_IMAGES (`$PWD/docs/images` retakes them in place), or to `STUDIO_SHOTS/docs/studio/`
 * to be looked at first. A call narrows it: `{ ...STUDIO_DOCS, widths: [390] }`, `height` for the
 * top of the page, `target` for one element.
 */
export const STUDIO_DOCS: DocsImageOptions = {
  folder: 'studio',
  exactName: true,
  fullPage: true,
  widths: [1440],
  desktopHeight: 900,
  otherwise: join(STUDIO_SHOTS, 'docs'),
}

/**
 * The accessibility checks every screen passes: one h1; every form control with an accessible
 * name (a label, aria-label or aria-labelledby); every button and link with a name; alerts in
 * role=alert; and keyboard focus visible (an outline) on the first few stops of the Tab order.
 */
export async function checkAccessibility(page: Page, screen: string): Promise<string[]> {
  const problems = await page.evaluate(() => {
    const out: string[] = []
    const h1 = document.querySelectorAll('h1')
    if (h1.length !== 1) out.push(`${h1.length} h1 elements`)
    for (const el of document.querySelectorAll<HTMLElement>('input, select, textarea')) {
      const input = el as HTMLInputElement
      const named =
        (input.labels?.length ?? 0) > 0 || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')
      if (!named && input.type !== 'hidden') out.push(`unnamed ${el.tagName.toLowerCase()} ${input.name ?? ''}`)
    }
    for (const el of document.querySelectorAll<HTMLElement>('button, a[href]')) {
      if (!(el.textContent ?? '').trim() && !el.getAttribute('aria-label')) out.push(`unnamed ${el.tagName}`)
    }
    for (const el of document.querySelectorAll<HTMLElement>('.notice.error')) {
      if (el.getAttribute('role') !== 'alert') out.push('an error notice without role=alert')
    }
    return out
  })
  expect(problems, `${screen}: ${problems.join('; ')}`).toEqual([])
  // the Tab order: each stop is visible, reachable and shows the focus ring
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  const stops: string[] = []
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab')
    const stop = await page.evaluate(() => {
      // focus inside a web component (the dashboard screens draw <strata-dashboard>): the element focused in its shadow root
      let el = document.activeElement as HTMLElement | null
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement as HTMLElement
      if (!el || el === document.body) return null
      const style = getComputedStyle(el)
      const box = el.getBoundingClientRect()
      return {
        name: `${el.tagName.toLowerCase()}:${(el.getAttribute('aria-label') ?? el.textContent ?? (el as HTMLInputElement).name ?? '').trim().slice(0, 40)}`,
        ring: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2,
        // a skip link is visible only once focused; others must have a size
        sized: box.width > 0 && box.height > 0,
      }
    })
    if (!stop) break
    expect(stop.ring, `${screen}: no visible focus on ${stop.name}`).toBe(true)
    stops.push(stop.name)
  }
  expect(stops.length, `${screen}: nothing reachable with Tab`).toBeGreaterThan(0)
  return stops
}

/**
 * Screenshots of one control in view at both widths, `<name>-<width>.png` in `dir`: the viewport
 * (not the full page), as a control inside a dialog that scrolls within itself is not on a
 * full-page shot. The dialog around it must not scroll sideways.
 */
export async function shootControl(page: Page, name: string, control: Locator, dir = STUDIO_SHOTS): Promise<void> {
  mkdirSync(dir, { recursive: true })
  const before = page.viewportSize() ?? { width: 1440, height: 900 }
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await control.scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(dir, `${name}-${width}.png`) })
    const overflow = await control.evaluate((c) => {
      const dialog = c.closest('dialog')
      return dialog ? dialog.scrollWidth - dialog.clientWidth : 0
    })
    expect(overflow, `${name} at ${width}px scrolls sideways`).toBeLessThanOrEqual(0)
  }
  await page.setViewportSize(before)
}
