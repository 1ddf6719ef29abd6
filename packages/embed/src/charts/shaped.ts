import type { ChartType, QueryResult, RuntimeMetric } from '../api/types.js'
import type { BuildContext, Visual } from './build.js'

/**
 * The builders of the chart types with a shape (combo, scatter, funnel, pivot, trend) live in their
 * own module (charts/kinds/), which the element loads only when a dashboard uses one of them, and
 * which the server's report renderer imports directly. Registered here when loaded.
 */
export type ShapedBuilder = (metric: RuntimeMetric, result: QueryResult, ctx: BuildContext) => Visual

let builders: Partial<Record<ChartType, ShapedBuilder>> = {}

export function registerShapedBuilders(more: Partial<Record<ChartType, ShapedBuilder>>): void {
  builders = { ...builders, ...more }
  loaded = true
}

let loaded = false
/** Whether the chunk of the less common chart types has registered itself. */
export const shapedLoaded = (): boolean => loaded

export const shapedBuilder = (type: ChartType): ShapedBuilder | undefined => builders[type]
