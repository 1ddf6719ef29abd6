import { base } from './base.js'
import { charts } from './charts.js'
import { filters } from './filters.js'
import { layout } from './layout.js'
import { states } from './states.js'
import { touch } from './touch.js'

/** The element's shadow styles, in cascade order. */
export const styles = [base, filters, layout, charts, states, touch]
