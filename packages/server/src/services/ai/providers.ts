import type { LlmProvider } from '../../config.js'
import { ApiError } from '../../errors.js'
import type { WorkspaceAi } from '../workspaces/workspaces.js'

/** A configured provider, by its llmName. */
export interface NamedProvider {
  readonly name: string
  readonly provider: LlmProvider
}

/**
 * The provider a workspace's AI pilot uses (docs/operations.md#ai-pilot-llm-providers): its `llmName` when set (a name
 * LLM_PROVIDERS lacks: none); else the first of its `aiCopilotLlms` that is configured; else
 * the only configured provider. Several configured and nothing chosen: none (AI_NOT_CONFIGURED).
 */
export function providerFor(
  ai: WorkspaceAi,
  providers: Readonly<Record<string, LlmProvider>>,
): NamedProvider | undefined {
  const named = (name: string): NamedProvider | undefined =>
    Object.hasOwn(providers, name) ? { name, provider: providers[name] as LlmProvider } : undefined
  if (ai.llmName !== undefined) return named(ai.llmName)
  for (const name of ai.aiCopilotLlms) {
    const found = named(name)
    if (found) return found
  }
  const names = Object.keys(providers)
  return names.length === 1 ? named(names[0] as string) : undefined
}

/** The one 400 of every AI route without a provider. */
export function notConfigured(ai: WorkspaceAi): ApiError {
  const why =
    ai.llmName !== undefined
      ? `the workspace's llmName "${ai.llmName.slice(0, 100)}" is not configured in LLM_PROVIDERS`
      : 'no provider is configured (LLM_PROVIDERS) or chosen for the workspace (llmName)'
  return new ApiError('AI_NOT_CONFIGURED', 400, `The AI pilot is not configured: ${why}`)
}
