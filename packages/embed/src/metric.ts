import { defineElement } from './define.js'
import { StrataMetric } from './metric.component.js'

export { StrataMetric }

defineElement('strata-metric', StrataMetric)

declare global {
  interface HTMLElementTagNameMap {
    'strata-metric': StrataMetric
  }
}
