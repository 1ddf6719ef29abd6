import type { AiAvailability } from '@strata/contract/ai'
import type { EffectivePermissions } from '@strata/contract/runtime'
import type { LlmProvider } from '../../config.js'
import type { WorkspaceAi } from '../workspaces/workspaces.js'
import { providerFor } from './providers.js'

/**
 * Which AI pilot routes answer for a token (the runtime load's `ai`, so the web component shows
 * only controls that work): the AI pilot capability (embed `isAllowAiPilot`) and a provider for
 * the workspace, then per route — chat creation: create and `metricCreationMode` CHAT; summary:
 * the workspace's `isEnableMetricSummary`; suggestions: its `isEnableMetricSuggestions`.
 */
export function aiAvailability(
  permissions: EffectivePermissions,
  ai: WorkspaceAi,
  providers: Readonly<Record<string, LlmProvider>>,
): AiAvailability {
  const on = permissions.aiPilot && providerFor(ai, providers) !== undefined
  return {
    metric: on && permissions.metricCreation && permissions.metricCreationMode === 'CHAT',
    summary: on && ai.isEnableMetricSummary,
    suggestions: on && ai.isEnableMetricSuggestions,
  }
}
