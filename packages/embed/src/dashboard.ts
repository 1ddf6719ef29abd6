import { StrataDashboard } from './dashboard.component.js'
import { defineElement } from './define.js'

export { StrataDashboard }

defineElement('strata-dashboard', StrataDashboard)

declare global {
  interface HTMLElementTagNameMap {
    'strata-dashboard': StrataDashboard
  }
}
