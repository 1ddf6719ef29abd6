/**
 * The chunk of the less common chart types (loaded by charts/load-shaped.ts, imported by the
 * self-serve chunk for the builder's preview): registers the builders and HTML of the chart types
 * with a shape, and the ECharts series they and the pie and doughnut draw with, so the entry stays
 * within its size budget.
 */
import { use } from 'echarts/core'
import { install as FunnelChart } from 'echarts/lib/chart/funnel/install.js'
import { install as PieChart } from 'echarts/lib/chart/pie/install.js'
import { install as ScatterChart } from 'echarts/lib/chart/scatter/install.js'
import { SHAPED_BUILDERS } from './charts/kinds/index.js'
import { registerShapedBuilders } from './charts/shaped.js'
// What the entry and the self-serve chunk share, imported here too (it is loaded already whenever this
// chunk is): esbuild groups modules by the entry points that reach them, and without these the shared
// chunk splits in two, which costs the entry ~6 KB gzip in a second file.
import './render/card.js'
import './self-serve/permissions.js'
import './lib/filters.js'
import './api/errors.js'
import './styles/index.js'
import './define.js'
// (and what the entry and the drill-down chunk share: without these two they would be a chunk of their own)
import './events.js'
import './drill-state.js'
import 'lit/decorators.js'
import 'lit/directives/repeat.js'
import 'lit/directives/live.js'
import { registerShapedRender } from './render/shaped-slot.js'
import { renderShaped } from './render/shaped-visuals.js'

use([ScatterChart, FunnelChart, PieChart])
registerShapedBuilders(SHAPED_BUILDERS)
registerShapedRender(renderShaped)
