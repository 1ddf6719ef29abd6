import {
  type AiMetricAnswer,
  type AiSuggestion,
  CreateMetricToolArgs,
  SuggestMetricsToolArgs,
} from '@strata/contract/ai'
import type {
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
} from 'openai/resources/chat/completions'
import type { GuestClaims } from '../../auth/principal.js'
import type { LlmProvider } from '../../config.js'
import { ApiError, TokenRefusal } from '../../errors.js'
import { check } from '../../schemas/check.js'
import { parseJsonText } from '../../validation/json-text.js'
import { effective } from '../guest-access/permissions.js'
import type { Opened, Runtime } from '../runtime/runtime.js'
import type { SelfServeMetrics } from '../self-serve/self-serve-metrics.js'
import type { Workspace, Workspaces } from '../workspaces/workspaces.js'
import { type LlmClient, providerError } from './client.js'
import { metricPrompt, suggestionsPrompt, summaryPrompt } from './prompts.js'
import { type NamedProvider, notConfigured, providerFor } from './providers.js'
import { CREATE_METRIC, SUGGEST_METRICS } from './tools.js'

export interface SummaryInput {
  readonly metricId: string
  readonly dashboardFilter?: Readonly<Record<string, unknown>> | undefined
  readonly metricFilter?: Readonly<Record<string, unknown>> | undefined
}

/** The validation error sent back to the model on its one retry is cut to this many characters. */
const FEEDBACK_MAX = 1_000
/** A summary answers at most this many characters. */
const SUMMARY_MAX = 4_000
/** Suggestions answered at most. */
const SUGGESTIONS_MAX = 10

type Feature = 'metric' | 'summary' | 'suggestions'

/**
 * The AI pilot (docs/runtime-api.md#ai-pilot) under the runtime path. The model is given the token's visible
 * model (names, labels, types) and, for a summary, the rows that token's own query returned;
 * what it answers is a tool call whose arguments are validated by the contract's schema, then
 * checked and compiled exactly as an end user's definition (SelfServeMetrics.checker). So no
 * text from a model becomes SQL: a hostile answer is at worst a definition that fails the
 * checks (one retry with the error, then 502) or one that reads only this tenant's rows.
 */
export class AiPilot {
  constructor(
    private readonly runtime: Runtime,
    private readonly selfServe: SelfServeMetrics,
    private readonly workspaces: Workspaces,
    private readonly providers: Readonly<Record<string, LlmProvider>>,
    private readonly client: LlmClient,
  ) {}

  /** POST /ai/metric: a definition answering the question, validated, not saved. */
  async metric(claims: GuestClaims, id: string, question: string): Promise<AiMetricAnswer> {
    const { opened, named } = await this.start(claims, id, 'metric')
    const checker = await this.selfServe.checker(claims, opened)
    return this.askTool(named, metricPrompt(checker.model, question), CREATE_METRIC, async (args) => {
      const { metric, explanation } = check(CreateMetricToolArgs, args, '')
      return { metric: await checker.check(metric), explanation: explanation.trim() }
    })
  }

  /** GET /ai/suggestions: the suggested metrics that validate for this token. */
  async suggestions(claims: GuestClaims, id: string): Promise<AiSuggestion[]> {
    const { opened, named } = await this.start(claims, id, 'suggestions')
    const checker = await this.selfServe.checker(claims, opened)
    return this.askTool(named, suggestionsPrompt(checker.model), SUGGEST_METRICS, async (args) => {
      const { suggestions } = check(SuggestMetricsToolArgs, args, '')
      const valid: AiSuggestion[] = []
      const problems: string[] = []
      let refused: TokenRefusal | undefined
      for (const [i, s] of suggestions.entries()) {
        try {
          valid.push({ name: s.name, metric: await checker.check(s.metric) })
        } catch (err) {
          if (!(err instanceof ApiError) || err.status >= 500) throw err
          if (err instanceof TokenRefusal) refused ??= err
          problems.push(`suggestions[${i}]: ${err.message}`)
        }
        if (valid.length === SUGGESTIONS_MAX) break
      }
      // an empty list is an answer; a list of which nothing validates is not: the token's own
      // refusal when that is why (no retry can help), else the model's mistake
      if (valid.length === 0 && refused) throw refused
      if (valid.length === 0 && problems.length > 0)
        throw new ApiError('INVALID_REQUEST_BODY', 400, problems.join('; '))
      return valid
    })
  }

  /** POST /ai/summary: a few sentences on the metric's result for this token (its rows only). */
  async summary(claims: GuestClaims, id: string, input: SummaryInput): Promise<{ summary: string }> {
    const { opened, named, workspace } = await this.start(claims, id, 'summary')
    // the runtime's own query path: the token's tenancy, RLS, locked filters; 400 for a metric it cannot see
    const result = await this.runtime.run(claims, opened, {
      metricId: input.metricId,
      ...(input.dashboardFilter ? { dashboardFilter: input.dashboardFilter } : {}),
      ...(input.metricFilter ? { metricFilter: input.metricFilter } : {}),
    })
    const metric = opened.dashboard.document.metrics.find((m) => m.metricId === input.metricId)
    const messages = summaryPrompt(
      workspace.ai,
      { name: metric?.name ?? input.metricId, columns: result.metaData.columns },
      result.data,
      result.totalRecords,
    )
    const completion = await this.client.complete(named, { messages })
    const text = completion.choices[0]?.message?.content
    if (typeof text !== 'string' || text.trim() === '') throw providerError(named, 'it answered no text')
    return { summary: text.trim().slice(0, SUMMARY_MAX) }
  }

  /** The embed (401/403 as every runtime route), the AI capability (403), then a provider (400). */
  private async start(
    claims: GuestClaims,
    id: string,
    feature: Feature,
  ): Promise<{ opened: Opened; named: NamedProvider; workspace: Workspace }> {
    const opened = await this.runtime.open(claims, id)
    const permissions = effective(claims, opened.embed)
    const refuse = (what: string) =>
      new ApiError('INSUFFICIENT_PERMISSIONS', 403, `${what} is not allowed for this embed and token`)
    if (!permissions.aiPilot) throw refuse('The AI pilot')
    const workspace = await this.workspaces.get(opened.company.workspaceId)
    switch (feature) {
      case 'metric':
        if (!permissions.metricCreation) throw refuse('Creating metrics')
        if (permissions.metricCreationMode !== 'CHAT') {
          throw new ApiError(
            'INSUFFICIENT_PERMISSIONS',
            403,
            'Creating metrics by chat is not allowed for this embed: its metricCreationMode is DRAG_DROP',
          )
        }
        break
      case 'summary':
        if (!workspace.ai.isEnableMetricSummary) {
          throw new ApiError('INSUFFICIENT_PERMISSIONS', 403, 'Metric summaries are off for this workspace')
        }
        break
      case 'suggestions':
        if (!workspace.ai.isEnableMetricSuggestions) {
          throw new ApiError('INSUFFICIENT_PERMISSIONS', 403, 'Metric suggestions are off for this workspace')
        }
        break
    }
    const named = providerFor(workspace.ai, this.providers)
    if (!named) throw notConfigured(workspace.ai)
    return { opened, named, workspace }
  }

  /**
   * One tool call, validated: an answer without the call, with arguments that are not JSON, or
   * that `validate` refuses (a 4xx) gets one retry carrying the error; a second failure is a 502.
   * A refusal that is the token's own (TokenRefusal: an RLS variable it gives no value …) is
   * answered at once, as the same definition on `/preview` would be: asking again cannot fix it.
   */
  private async askTool<T>(
    named: NamedProvider,
    prompt: ChatCompletionMessageParam[],
    tool: ChatCompletionTool,
    validate: (args: unknown) => Promise<T>,
  ): Promise<T> {
    const name = tool.type === 'function' ? tool.function.name : ''
    const messages = [...prompt]
    let problem = ''
    for (let attempt = 0; attempt < 2; attempt++) {
      const completion = await this.client.complete(named, {
        messages,
        tools: [tool],
        tool_choice: { type: 'function', function: { name } },
      })
      const message = completion.choices[0]?.message
      const call = message?.tool_calls?.find(
        (c): c is Extract<ChatCompletionMessageToolCall, { type: 'function' }> =>
          c.type === 'function' && c.function?.name === name,
      )
      if (!call) {
        problem = `the answer did not call the tool ${name}`
        messages.push(
          { role: 'assistant', content: typeof message?.content === 'string' ? message.content : '' },
          { role: 'user', content: `Answer only by calling the tool ${name}.` },
        )
        continue
      }
      try {
        return await validate(parseArguments(call.function.arguments))
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500 || err instanceof TokenRefusal) throw err
        problem = err.message
      }
      messages.push(
        { role: 'assistant', content: null, tool_calls: [call] },
        {
          role: 'tool',
          tool_call_id: call.id,
          content: `Invalid: ${problem.slice(0, FEEDBACK_MAX)}. Call ${name} again with corrected arguments.`,
        },
      )
    }
    throw providerError(named, `its answer was not valid after one retry: ${problem.slice(0, 300)}`)
  }
}

/**
 * Tool arguments as the model sent them: a JSON text, read by the parser of request bodies
 * (depth, no prototype-poisoning key); a 400 to retry on when it is not.
 */
function parseArguments(text: unknown): unknown {
  if (typeof text !== 'string') throw new ApiError('INVALID_REQUEST_BODY', 400, 'the tool arguments are missing')
  const parsed = parseJsonText(text)
  if ('value' in parsed) return parsed.value
  const { kind, problem } = parsed.fault
  throw new ApiError(
    'INVALID_REQUEST_BODY',
    400,
    kind === 'malformed' ? 'the tool arguments are not valid JSON' : `the tool arguments' JSON ${problem}`,
  )
}
