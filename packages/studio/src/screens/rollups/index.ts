import { StudioRollupState } from './rollup-state.js'
import { rollupStyles } from './rollup-styles.js'
import { StudioDashboardRollups } from './rollups-panel.js'

/**
 * The rollups panel, loaded on demand (a chunk of its own, outside the studio's entry budget)
 * the first time a dashboard's Rollups tab opens: its stylesheet adopted, its elements defined.
 */
export function defineRollups(): void {
  if (rollupStyles.styleSheet && !document.adoptedStyleSheets.includes(rollupStyles.styleSheet)) {
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, rollupStyles.styleSheet]
  }
  if (!customElements.get('studio-dashboard-rollups'))
    customElements.define('studio-dashboard-rollups', StudioDashboardRollups)
  if (!customElements.get('studio-rollup-state')) customElements.define('studio-rollup-state', StudioRollupState)
}
