import type { DashboardDocument } from '@strata/contract/document'
import type { Rollup } from '@strata/contract/rollups'
import type { SemanticModel } from '../../query/model.js'
import { deriveAutoRollups } from './auto.js'
import { planRollup, type RollupPlan } from './definition.js'

/**
 * The rollups a document declares, planned against the model: its list, or "auto" derived
 * from its metrics. A rollup the model no longer fits (a column dropped since the import) comes
 * back as an error with its name, so its state can say why it is not built.
 */
export function plansOf(
  doc: DashboardDocument,
  model: SemanticModel,
): { readonly name: string; readonly plan?: RollupPlan; readonly error?: string }[] {
  const declared: readonly Rollup[] =
    doc.rollups === 'auto' ? deriveAutoRollups(doc, model) : Array.isArray(doc.rollups) ? doc.rollups : []
  return declared.map((r, i) => {
    try {
      return { name: r.name, plan: planRollup(model, doc, r, `rollups[${i}]`) }
    } catch (err) {
      return { name: r.name, error: err instanceof Error ? err.message : String(err) }
    }
  })
}
