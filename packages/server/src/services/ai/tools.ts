import { CreateMetricToolArgs, SuggestMetricsToolArgs } from '@strata/contract/ai'
import type { ChatCompletionTool } from 'openai/resources/chat/completions'

/** A TypeBox schema as plain JSON Schema (TypeBox's symbol keys dropped). */
const jsonSchema = (schema: object): Record<string, unknown> => JSON.parse(JSON.stringify(schema))

/**
 * The tools offered to the model (docs/runtime-api.md#ai-pilot), their parameters the contract's schemas of
 * what the server then validates: a structured definition in the document's `query` form (docs/dashboard-document.md#structured-query), never SQL.
 */
export const CREATE_METRIC: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'create_metric',
    description:
      'Answer the question with one metric: a structured definition over the tables and columns of the model, never SQL.',
    parameters: jsonSchema(CreateMetricToolArgs),
  },
}

export const SUGGEST_METRICS: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'suggest_metrics',
    description: 'Suggest up to 10 metrics worth building on this model, each a structured definition, never SQL.',
    parameters: jsonSchema(SuggestMetricsToolArgs),
  },
}
