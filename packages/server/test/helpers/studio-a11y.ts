/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core'
import { expect } from 'vitest'
import { checkAccessibility } from './studio.js'

/**
 * The studio's accessibility checks beyond `checkAccessibility` (one h1, labels, focus ring):
 * landmarks, the order of headings, the accessible name of every control as Chromium computes
 * it, the Tab order against the screen's layout, and modal dialogs.
 */

/** Roles a person operates: each must have an accessible name. */
const CONTROL_ROLES = new Set([
  'button',
  'checkbox',
  'combobox',
  'link',
  'listbox',
  'menuitem',
  'radio',
  'searchbox',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'textbox',
])

/** One stop of the Tab order: what it is, where it is on the page, and in which part of it. */
export interface FocusStop {
  readonly name: string
  /** `nav`, `main`, `dialog`, `other` (the skip link), or `element` (inside a web component). */
  readonly region: string
  readonly top: number
  readonly left: number
  readonly right: number
  readonly bottom: number
  readonly ring: boolean
}

/** Landmarks and headings: one main holding the h1, the navigation named, forms named, no heading level skipped. */
export async function checkStructure(page: Page, screen: string, app: boolean): Promise<void> {
  const problems = await page.evaluate((inApp) => {
    const out: string[] = []
    const mains = document.querySelectorAll('main, [role="main"]')
    if (mains.length !== 1) out.push(`${mains.length} main landmarks`)
    else if (!mains[0]?.querySelector('h1')) out.push('the h1 is not in the main landmark')
    if (inApp) {
      const navs = document.querySelectorAll('nav')
      if (navs.length !== 1 || !navs[0]?.getAttribute('aria-label')) out.push('no one named navigation')
    }
    for (const form of document.querySelectorAll('form')) {
      if (!form.getAttribute('aria-label') && !form.getAttribute('aria-labelledby')) out.push('a form without a name')
    }
    const visible = (el: Element) =>
      (el as HTMLElement).offsetParent !== null || getComputedStyle(el).position === 'fixed'
    const levels = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
      .filter((h) => visible(h) && !h.closest('dialog:not([open])'))
      .map((h) => ({ level: Number(h.tagName[1]), text: (h.textContent ?? '').trim().slice(0, 40) }))
    if (levels[0]?.level !== 1) out.push(`the first heading is not the h1 (${levels[0]?.text})`)
    for (let i = 1; i < levels.length; i++) {
      const [a, b] = [levels[i - 1], levels[i]]
      if (a && b && b.level > a.level + 1) out.push(`heading h${b.level} "${b.text}" after h${a.level} "${a.text}"`)
    }
    return out
  }, app)
  expect(problems, `${screen}: ${problems.join('; ')}`).toEqual([])
}

/**
 * Every control in Chromium's accessibility tree (the web component's shadow DOM included) has a
 * name: what a screen reader announces for it.
 */
export async function checkNames(page: Page, screen: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { ignored: boolean; role?: { value?: string }; name?: { value?: string } }[]
    }
    const unnamed = nodes
      .filter((n) => !n.ignored && CONTROL_ROLES.has(n.role?.value ?? '') && !String(n.name?.value ?? '').trim())
      .map((n) => n.role?.value ?? '')
    expect(unnamed, `${screen}: controls without a name: ${unnamed.join(', ')}`).toEqual([])
  } finally {
    await cdp.detach()
  }
}

/** Walks the Tab order from `start` (focused first) until it comes back round; each stop with its place. */
export async function tabOrder(page: Page, start: Locator, max = 80): Promise<FocusStop[]> {
  await start.focus()
  const stops: FocusStop[] = []
  for (let i = 0; i < max; i++) {
    const stop = await page.evaluate(() => {
      let el = document.activeElement as HTMLElement | null
      let region = ''
      while (el?.shadowRoot?.activeElement) {
        el = el.shadowRoot.activeElement as HTMLElement
        region = 'element'
      }
      if (!el || el === document.body) return null
      region ||= el.closest('dialog') ? 'dialog' : el.closest('nav') ? 'nav' : el.closest('main') ? 'main' : 'other'
      const box = el.getBoundingClientRect()
      const style = getComputedStyle(el)
      const label = el.getAttribute('aria-label') ?? el.textContent ?? ''
      return {
        name: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}:${label.trim().replace(/\s+/g, ' ').slice(0, 40)}`,
        region,
        top: box.top + scrollY,
        bottom: box.bottom + scrollY,
        left: box.left + scrollX,
        right: box.right + scrollX,
        ring: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2,
      }
    })
    if (!stop || (stops.length > 0 && stop.name === stops[0]?.name && stop.top === stops[0]?.top)) break
    stops.push(stop)
    await page.keyboard.press('Tab')
  }
  return stops
}

/**
 * Where Tab goes against the layout: within the navigation and within the screen, each stop is
 * after the one before in reading order (below it, or to its right on the same line, or at the
 * top of a column to its right). A stop that goes back up or left is a Tab order that jumps.
 */
export function backwardSteps(stops: readonly FocusStop[]): string[] {
  const out: string[] = []
  for (let i = 1; i < stops.length; i++) {
    const [a, b] = [stops[i - 1], stops[i]]
    if (!a || !b || a.region !== b.region || (a.region !== 'main' && a.region !== 'nav')) continue
    const sameLine = b.top < a.bottom - 2 && b.bottom > a.top + 2
    const up = b.bottom <= a.top + 2
    const toTheRight = b.left >= a.right - 2
    if ((sameLine && !toTheRight && b.right <= a.left + 2) || (up && !toTheRight)) out.push(`${a.name} → ${b.name}`)
  }
  return out
}

/**
 * A screen of the studio's app (signed in), at the width it is shown: the checks of
 * `checkAccessibility`, landmarks and headings, every control named, and the whole Tab order
 * from the skip link: the navigation's links in order (or the Menu button below 860 px), then the
 * screen's controls in reading order, every stop with a visible focus.
 */
export async function checkScreen(page: Page, screen: string): Promise<FocusStop[]> {
  await checkAccessibility(page, screen)
  await checkStructure(page, screen, true)
  await checkNames(page, screen)
  const stops = await tabOrder(page, page.locator('a.skip'))
  const names = stops.map((s) => s.name)
  expect(names[0], `${screen}: the skip link first`).toMatch(/^a:Skip to content/)
  const narrow = (page.viewportSize()?.width ?? 1440) < 860
  if (narrow) {
    expect(
      names.some((n) => n.startsWith('button:Menu')),
      `${screen}: the Menu button is reachable`,
    ).toBe(true)
  } else {
    const nav = stops.filter((s) => s.region === 'nav').map((s) => s.name.split(':')[1])
    expect(nav, `${screen}: the navigation by Tab`).toEqual([
      'Strata studio',
      'Datasources',
      'Datamarts',
      'Workspaces',
      'Dashboards',
      'Data apps',
      'Embeds',
      'Sign out',
    ])
  }
  expect(
    stops.filter((s) => s.region === 'main').length,
    `${screen}: no control of the screen is reachable with Tab`,
  ).toBeGreaterThan(0)
  const hidden = stops.filter((s) => s.region !== 'element' && s.region !== 'other' && !s.ring).map((s) => s.name)
  expect(hidden, `${screen}: stops without a visible focus`).toEqual([])
  expect(backwardSteps(stops), `${screen}: Tab goes back against the layout`).toEqual([])
  return stops
}

/**
 * A modal dialog opened by `opener` (with Enter, as a keyboard user does): it takes the focus,
 * Tab and Shift+Tab stay inside it, and Escape closes it and gives the focus back to `opener`.
 */
export async function checkDialog(page: Page, opener: Locator, screen: string): Promise<void> {
  await opener.focus()
  await page.keyboard.press('Enter')
  const dialog = page.locator('dialog[open]')
  await dialog.waitFor()
  expect(await dialog.getAttribute('aria-modal'), `${screen}: the dialog is modal`).toBe('true')
  const inside = () => page.evaluate(() => document.activeElement?.closest('dialog[open]') !== null)
  expect(await inside(), `${screen}: the dialog takes the focus`).toBe(true)
  for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key)
    expect(await inside(), `${screen}: ${key} leaves the dialog`).toBe(true)
  }
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'detached' })
  expect(
    await opener.evaluate((el) => el === document.activeElement),
    `${screen}: the focus is back on what opened the dialog`,
  ).toBe(true)
}
