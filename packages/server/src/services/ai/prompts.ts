import type { SelfServeModel } from '@strata/contract/self-serve'
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import type { WorkspaceAi } from '../workspaces/workspaces.js'

/**
 * What the model is told (docs/runtime-api.md#ai-pilot). It sees the tenant-visible model only — table and
 * column names, labels and types, relationships, never a row, a tenant column or a hidden one —
 * and, for a summary, the rows that this token's own query returned (capped). Whatever it
 * answers is validated and compiled like an end user's definition: the prompts ask for the
 * right shape, they are not what keeps tenants apart.
 */

/** The model's description as the prompt carries it, cut to at most this many characters. */
export const MODEL_MAX_CHARS = 60_000
/** A summary sees at most this many rows of its result … */
export const SUMMARY_MAX_ROWS = 50
/** … and at most this many characters of them as JSON. */
export const SUMMARY_MAX_CHARS = 12_000

const RULES = [
  'Use only the tables and columns of the model below, spelled exactly as there: `query.from` is a table name; a column of another table is named with `table` and must be joined by a relationship.',
  'Measures aggregate a column (count needs none); dimensions group by a column (a date or time column may take a timeGrain); where holds conditions with literal values.',
  'Give every measure and dimension a short snake_case `name`; chart.x names a dimension and chart.y names measures.',
  'Never write SQL or expressions: every string is a name or a literal value.',
].join('\n- ')

/** The visible model as JSON, tables dropped from the end past MODEL_MAX_CHARS. */
export function describeForPrompt(model: SelfServeModel): string {
  const tables = [...model.tables]
  let text = JSON.stringify({ tables, relationships: model.relationships })
  while (text.length > MODEL_MAX_CHARS && tables.length > 1) {
    tables.pop()
    const names = new Set(tables.map((t) => t.name))
    const relationships = model.relationships.filter((r) => names.has(r.parentTable) && names.has(r.childTable))
    text = JSON.stringify({ tables, relationships })
  }
  return text.slice(0, MODEL_MAX_CHARS)
}

export function metricPrompt(model: SelfServeModel, question: string): ChatCompletionMessageParam[] {
  return [
    {
      role: 'system',
      content: `You build one metric for an analytics dashboard from an end user's question. Answer only by calling the tool create_metric with { metric, explanation }.\n- ${RULES}\n- explanation: one or two sentences for the end user on what the metric shows.\n\nThe model (JSON):\n${describeForPrompt(model)}`,
    },
    { role: 'user', content: question },
  ]
}

export function suggestionsPrompt(model: SelfServeModel): ChatCompletionMessageParam[] {
  return [
    {
      role: 'system',
      content: `You suggest metrics worth building on an analytics model. Answer only by calling the tool suggest_metrics with { suggestions: [ { name, metric } ] }, at most 10, each different.\n- ${RULES}\n\nThe model (JSON):\n${describeForPrompt(model)}`,
    },
    { role: 'user', content: 'Suggest metrics worth building on this model.' },
  ]
}

const DEFAULT_SUMMARY =
  'Summarise the result of this metric for a business user in at most three plain sentences: the main figures, the largest and smallest values, and any notable trend. Use only the rows given; do not invent figures. Answer with plain text only.'

/**
 * The instruction of a summary: the workspace's `customSummaryPrompt` when `summaryType` is
 * `custom` and it has one, else the default.
 */
export function summaryInstruction(ai: WorkspaceAi): string {
  return ai.summaryType === 'custom' && ai.customSummaryPrompt !== undefined ? ai.customSummaryPrompt : DEFAULT_SUMMARY
}

export function summaryPrompt(
  ai: WorkspaceAi,
  metric: { name: string; columns: readonly { name: string; dataType: string }[] },
  rows: readonly Record<string, unknown>[],
  totalRecords: number,
): ChatCompletionMessageParam[] {
  const shown = rows.slice(0, SUMMARY_MAX_ROWS)
  let text = JSON.stringify(shown)
  while (text.length > SUMMARY_MAX_CHARS && shown.length > 1) {
    shown.pop()
    text = JSON.stringify(shown)
  }
  text = text.slice(0, SUMMARY_MAX_CHARS)
  const columns = metric.columns.map((c) => `${c.name} (${c.dataType})`).join(', ')
  return [
    { role: 'system', content: summaryInstruction(ai) },
    {
      role: 'user',
      content: `Metric: ${metric.name}\nColumns: ${columns || 'none'}\nRows (${shown.length} of ${totalRecords}, JSON):\n${text}`,
    },
  ]
}
