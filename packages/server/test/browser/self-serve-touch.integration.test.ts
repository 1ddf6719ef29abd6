/// <reference lib="dom" />
import type { CDPSession, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useBrowserSuite } from '../helpers/browser.js'
import { hasChromium } from '../helpers/chromium.js'

/**
 * The builder's drag and drop with a finger and with a pen, not only a mouse: Chromium's own
 * input pipeline (DevTools' Input.dispatchTouchEvent and a pen's Input.dispatchMouseEvent), so
 * touch-action, implicit capture and the pointer events are the browser's, as on a tablet. A
 * finger moving down the field list scrolls it and adds nothing.
 */

type Box = { x: number; y: number; width: number; height: number }
const center = (b: Box) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 })

/** Every pointerType of the pointerdowns the page saw (recorded from before the gesture). */
const recordPointerTypes = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { pointerTypes: string[] }
    w.pointerTypes = []
    document.addEventListener('pointerdown', (e) => w.pointerTypes.push(e.pointerType), true)
  })
const pointerTypes = (page: Page) => page.evaluate(() => (window as unknown as { pointerTypes: string[] }).pointerTypes)

type Point = { x: number; y: number }

/** A finger put down at `from`, moved along `via` then to `to` in small steps, and lifted. */
async function touchDrag(cdp: CDPSession, from: Point, to: Point, via: readonly Point[] = []) {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ ...from, id: 1 }] })
  let at = from
  for (const leg of [...via, to]) {
    const steps = 8
    for (let i = 1; i <= steps; i++) {
      const point = { x: at.x + ((leg.x - at.x) * i) / steps, y: at.y + ((leg.y - at.y) * i) / steps, id: 1 }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] })
    }
    at = leg
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
}
/** How a finger takes a field out of the list: sideways first (up or down would scroll the list). */
const sideways = (from: Point): Point[] => [{ x: from.x + 40, y: from.y }]

async function penDrag(cdp: CDPSession, from: { x: number; y: number }, to: { x: number; y: number }) {
  const pen = { pointerType: 'pen' as const, button: 'left' as const, clickCount: 1 }
  await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', ...from, pointerType: 'pen' })
  await cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...from, ...pen })
  const steps = 8
  for (let i = 1; i <= steps; i++) {
    const point = { x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps }
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', ...point, pointerType: 'pen', buttons: 1 })
  }
  await cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...to, ...pen })
}

describe.skipIf(!hasChromium)('the builder with touch and pen in Chromium', () => {
  const b = useBrowserSuite()

  /** The builder open on a new metric, on a touch screen, its model loaded. */
  async function openBuilder(viewport = { width: 1280, height: 900 }): Promise<{ page: Page; cdp: CDPSession }> {
    const token = await b.mint('acme', {})
    const page = await b.openDashboard(token, { hasTouch: true, viewport })
    await page.locator('#d [part~="new-metric-button"]').click()
    await page.locator('#d #bd-field-channel').waitFor()
    await recordPointerTypes(page)
    return { page, cdp: await page.context().newCDPSession(page) }
  }
  const items = (page: Page, zone: string) => page.locator(`#d [data-zone="${zone}"] .bd-item`).count()
  const boxOf = async (page: Page, selector: string) => center((await page.locator(selector).boundingBox()) as Box)

  it('a finger drags a field into Measures, another into Dimensions; the preview is drawn', async () => {
    const { page, cdp } = await openBuilder()
    const amount = await boxOf(page, '#d #bd-field-amount')
    await touchDrag(cdp, amount, await boxOf(page, '#d [data-zone="measures"]'), sideways(amount))
    await expect.poll(() => items(page, 'measures')).toBe(1)
    const channel = await boxOf(page, '#d #bd-field-channel')
    await touchDrag(cdp, channel, await boxOf(page, '#d [data-zone="dimensions"]'), sideways(channel))
    await expect.poll(() => items(page, 'dimensions')).toBe(1)
    expect(new Set(await pointerTypes(page))).toEqual(new Set(['touch']))
    // the drop opened no field menu, and the ghost is gone
    expect(await page.locator('#d .bd-menu').count()).toBe(0)
    expect(await page.locator('#d .bd-ghost').count()).toBe(0)
    await page.locator('#d .bd-preview[data-state="ready"] canvas').waitFor({ timeout: 20_000 })
    await page.close()
  }, 120_000)

  it('a finger let go outside any zone adds nothing; a tap still opens the field’s menu', async () => {
    const { page, cdp } = await openBuilder()
    const field = await boxOf(page, '#d #bd-field-amount')
    const title = await boxOf(page, '#d #bd-title')
    await touchDrag(cdp, field, { x: title.x, y: title.y }, sideways(field))
    expect(await page.locator('#d .bd-ghost').count()).toBe(0)
    expect(await items(page, 'measures')).toBe(0)
    await page.touchscreen.tap(field.x, field.y)
    await page.locator('#d [role="menu"] [data-target="measures"]').waitFor()
    await page.locator('#d [role="menu"] [data-target="measures"]').tap()
    await expect.poll(() => items(page, 'measures')).toBe(1)
    await page.close()
  }, 120_000)

  it('a finger moving down the field list scrolls it and adds nothing', async () => {
    const { page, cdp } = await openBuilder({ width: 1280, height: 700 })
    const list = page.locator('#d .bd-fields')
    const scrollTop = () => list.evaluate((el) => el.scrollTop)
    expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true)
    // a field in the middle of the list as shown
    const from = await list.evaluate((el) => {
      const box = el.getBoundingClientRect()
      const field =
        el.getRootNode() instanceof ShadowRoot
          ? (el.getRootNode() as ShadowRoot).elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)
          : null
      const f = field?.closest('.bd-field')?.getBoundingClientRect()
      return f ? { x: f.x + f.width / 2, y: f.y + f.height / 2 } : { x: 0, y: 0 }
    })
    expect(from.y).toBeGreaterThan(0)
    await touchDrag(cdp, from, { x: from.x, y: from.y - 150 })
    await expect.poll(scrollTop).toBeGreaterThan(0)
    expect(await page.locator('#d .bd-ghost').count()).toBe(0)
    for (const zone of ['measures', 'dimensions', 'filters']) expect(await items(page, zone)).toBe(0)
    await page.close()
  }, 120_000)

  it('a pen drags a field into Filters', async () => {
    const { page, cdp } = await openBuilder()
    await penDrag(cdp, await boxOf(page, '#d #bd-field-channel'), await boxOf(page, '#d [data-zone="filters"]'))
    await expect.poll(() => items(page, 'filters')).toBe(1)
    expect(new Set(await pointerTypes(page))).toEqual(new Set(['pen']))
    await page.close()
  }, 120_000)
})
