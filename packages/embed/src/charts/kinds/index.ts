import type { ChartType } from '../../api/types.js'
import type { ShapedBuilder } from '../shaped.js'
import { buildCombo } from './combo.js'
import { buildFunnel } from './funnel.js'
import { buildPivot } from './pivot.js'
import { buildScatter } from './scatter.js'
import { buildTrend } from './trend.js'

/** The builders of the chart types with a shape (docs/dashboard-document.md, "Chart types"). */
export const SHAPED_BUILDERS: Partial<Record<ChartType, ShapedBuilder>> = {
  combo: buildCombo,
  scatter: buildScatter,
  funnel: buildFunnel,
  pivot: buildPivot,
  trend: buildTrend,
}
