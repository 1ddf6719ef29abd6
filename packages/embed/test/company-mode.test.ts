import { describe, expect, it } from 'vitest'
import { COMPANY_METRIC_EVENT, companySave } from '../src/self-serve/company-mode.js'

/** A stand-in for the element: an event target with or without the `company-mode` attribute. */
class FakeElement extends EventTarget {
  constructor(private readonly company: boolean) {
    super()
  }
  hasAttribute(name: string): boolean {
    return this.company && name === 'company-mode'
  }
}
const element = (company: boolean) => new FakeElement(company) as unknown as Element

describe("the company's mode", () => {
  it('saves as an end user (no event) without the attribute', () => {
    const el = element(false)
    let fired = false
    el.addEventListener(COMPANY_METRIC_EVENT, () => {
      fired = true
    })
    expect(companySave(el, COMPANY_METRIC_EVENT, { metricId: undefined })).toBeUndefined()
    expect(fired).toBe(false)
  })

  it("hands the save to the page's answer, with the detail it was given", async () => {
    const el = element(true)
    el.addEventListener(COMPANY_METRIC_EVENT, (e) => {
      const detail = (e as CustomEvent<{ metricId: string; respondWith(p: Promise<string>): void }>).detail
      expect(e.bubbles && e.composed).toBe(true)
      detail.respondWith(Promise.resolve(`saved ${detail.metricId}`))
    })
    await expect(companySave<string>(el, COMPANY_METRIC_EVENT, { metricId: 'revenue' })).resolves.toBe('saved revenue')
  })

  it('fails the save when nothing on the page answers', async () => {
    await expect(companySave(element(true), COMPANY_METRIC_EVENT, {})).rejects.toThrow(/Nothing on this page saves/)
  })
})
