import { describe, expect, it } from 'vitest'
import { ApiError } from '../../errors.js'
import { checkLayout, resolveLayout } from './layout-grid.js'

const item = (metricId: string, x: number, y: number, w: number, h: number) => ({ metricId, x, y, w, h })

describe('resolveLayout', () => {
  const company = [item('a', 0, 0, 12, 4), item('b', 0, 4, 12, 4)]
  const tenant = [item('b', 0, 0, 6, 2)]
  const user = [item('a', 6, 0, 6, 2)]

  it("the user's layout before the tenant's before the company's", () => {
    expect(resolveLayout({ user, tenant }, company, ['a', 'b'])).toEqual({
      // b, missing from the user's layout, takes the free half row beside a
      layout: [item('b', 0, 0, 6, 4), item('a', 6, 0, 6, 2)],
      customLayout: true,
    })
    expect(resolveLayout({ tenant }, company, ['a', 'b'])).toEqual({
      layout: [item('b', 0, 0, 6, 2), item('a', 6, 0, 6, 4)],
      customLayout: true,
    })
    expect(resolveLayout({}, company, ['a', 'b'])).toEqual({ layout: company, customLayout: false })
  })

  it('a saved layout naming a metric the company deleted loses that item and leaves no hole', () => {
    const saved = [item('old', 0, 0, 12, 6), item('a', 0, 6, 6, 3)]
    expect(resolveLayout({ tenant: saved }, [item('a', 0, 0, 6, 6)], ['a'])).toEqual({
      layout: [item('a', 0, 0, 6, 3)],
      customLayout: true,
    })
  })
})

describe('checkLayout', () => {
  const visible = new Set(['a', 'b'])
  const failure = (layout: Parameters<typeof checkLayout>[0]) => {
    try {
      checkLayout(layout, visible, 'emb_1')
    } catch (err) {
      if (err instanceof ApiError) return [err.status, err.code, err.message]
      throw err
    }
    return undefined
  }

  it('accepts a layout on the grid, any subset of the visible metrics', () => {
    expect(failure([item('a', 0, 0, 12, 40), item('b', 11, 40, 1, 1)])).toBeUndefined()
    expect(failure([])).toBeUndefined()
  })

  it('refuses an item past the 12th column, too tall, or negative, naming the item', () => {
    expect(failure([item('a', 0, 0, 6, 4), item('b', 7, 0, 6, 4)])).toEqual([
      400,
      'INVALID_REQUEST_BODY',
      "layout[1].w must keep x + w ≤ 12 (the grid's columns)",
    ])
    expect(failure([item('a', 0, 0, 6, 41)])?.[2]).toMatch(/^layout\[0\]\.h must be an integer from 1 to 40/)
    expect(failure([item('a', -1, 0, 6, 4)])?.[2]).toMatch(/^layout\[0\]\.x must be an integer ≥ 0/)
    expect(failure([item('a', 0, -2, 6, 4)])?.[2]).toMatch(/^layout\[0\]\.y/)
    expect(failure([item('a', 0, 0, 0, 4)])?.[2]).toMatch(/^layout\[0\]\.w must be an integer ≥ 1/)
    expect(failure([item('a', 0.5, 0, 6, 4)])?.[2]).toMatch(/^layout\[0\]\.x/)
  })

  it('refuses a metric twice', () => {
    expect(failure([item('a', 0, 0, 6, 4), item('a', 6, 0, 6, 4)])).toEqual([
      400,
      'INVALID_REQUEST_BODY',
      'layout[1].metricId repeats metric a',
    ])
  })

  it('a metric the token does not see is EMBED_PARAM_ERROR, as the runtime query answers', () => {
    expect(failure([item('a', 0, 0, 6, 4), item('other_tenants', 6, 0, 6, 4)])).toEqual([
      400,
      'EMBED_PARAM_ERROR',
      'Metric other_tenants is not in embed emb_1',
    ])
  })

  it('refuses more than 500 items', () => {
    const many = Array.from({ length: 501 }, (_, i) => item('a', 0, i, 1, 1))
    expect(failure(many)).toEqual([400, 'INVALID_REQUEST_BODY', 'layout must have at most 500 items'])
  })
})
