import { type Static, Type } from 'typebox'
import { EndUserMetricDefinition } from './self-serve.js'

/**
 * The AI pilot's bodies and answers (docs/runtime-api.md#ai-pilot), and the arguments of the two tools the
 * server offers the model. A model only ever answers with a structured metric definition (the
 * one end users send to /preview and /metrics), validated and compiled like theirs: no text
 * from a model becomes SQL.
 */
const closed = { additionalProperties: false } as const

const Filters = Type.Record(Type.String({ minLength: 1, maxLength: 500 }), Type.Unknown(), {
  description: 'filter name or label (case-insensitive) → value in one of the documented filter value forms',
})

export const AiMetricBody = Type.Object(
  { question: Type.String({ minLength: 1, maxLength: 2_000, description: "The end user's question, in words" }) },
  { ...closed, examples: [{ question: 'How many orders per status?' }] },
)

export const AiMetricResponse = Type.Object({
  data: Type.Object({
    metric: EndUserMetricDefinition,
    explanation: Type.String({ description: "The model's words on what the metric shows" }),
  }),
})
export type AiMetricAnswer = Static<typeof AiMetricResponse>['data']

export const AiSummaryBody = Type.Object(
  {
    metricId: Type.String({ minLength: 1, maxLength: 500 }),
    dashboardFilter: Type.Optional(Filters),
    metricFilter: Type.Optional(Filters),
  },
  { ...closed, examples: [{ metricId: 'revenue_by_country', dashboardFilter: { period: 'Last 90 days' } }] },
)

export const AiSummaryResponse = Type.Object({
  data: Type.Object({ summary: Type.String({ description: "A few sentences on the metric's current result" }) }),
})

export const AiSuggestion = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  metric: EndUserMetricDefinition,
})
export type AiSuggestion = Static<typeof AiSuggestion>

export const AiSuggestionsResponse = Type.Object({
  data: Type.Array(AiSuggestion, { description: 'Metrics worth building on this model, each ready for /preview' }),
})

/** The arguments of the `create_metric` tool (its JSON schema is this one). */
export const CreateMetricToolArgs = Type.Object(
  {
    metric: EndUserMetricDefinition,
    explanation: Type.String({ maxLength: 2_000, description: 'One or two sentences for the end user' }),
  },
  closed,
)
export type CreateMetricToolArgs = Static<typeof CreateMetricToolArgs>

/** The arguments of the `suggest_metrics` tool. */
export const SuggestMetricsToolArgs = Type.Object(
  {
    suggestions: Type.Array(Type.Object({ name: AiSuggestion.properties.name, metric: EndUserMetricDefinition }), {
      maxItems: 20,
    }),
  },
  closed,
)
export type SuggestMetricsToolArgs = Static<typeof SuggestMetricsToolArgs>

/**
 * Which AI controls work for this token (the runtime load's `ai`): the AI pilot capability
 * AND a configured provider for the workspace AND, per feature, its own condition.
 */
export const AiAvailabilitySchema = Type.Object(
  {
    metric: Type.Boolean({ description: 'POST /ai/metric: also needs create and metricCreationMode CHAT' }),
    summary: Type.Boolean({ description: 'POST /ai/summary: also needs the workspace isEnableMetricSummary' }),
    suggestions: Type.Boolean({
      description: 'GET /ai/suggestions: also needs the workspace isEnableMetricSuggestions',
    }),
  },
  { description: 'Which AI pilot routes answer for this token; all false: show no AI controls' },
)
export type AiAvailability = Static<typeof AiAvailabilitySchema>
