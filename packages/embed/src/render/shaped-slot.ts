import type { TemplateResult } from 'lit'
import type { Visual } from '../charts/build.js'

/** The pivot table and the number with its trend, drawn by the module that builds them (loaded on demand). */
export type ShapedVisual = Extract<Visual, { kind: 'pivot' | 'trend' }>
export type ShapedRender = (visual: ShapedVisual, name: string) => TemplateResult

let render: ShapedRender | undefined

export function registerShapedRender(fn: ShapedRender): void {
  render = fn
}

export const shapedRender = (): ShapedRender | undefined => render
