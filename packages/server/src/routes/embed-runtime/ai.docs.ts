import { GUEST_TOKEN, type OperationError, operations } from '../../schemas/openapi.js'
import { browser, outside, tokenOrEmbedGone } from './guest.docs.js'

const refused = (what: string): OperationError => [403, 'INSUFFICIENT_PERMISSIONS', what]
const notConfigured: OperationError = [
  400,
  'AI_NOT_CONFIGURED',
  "No provider in LLM_PROVIDERS serves the workspace: none configured, or the workspace's llmName names one that is not (docs/operations.md).",
]
const providerFailed = (what: string): OperationError => [
  502,
  'AI_PROVIDER_ERROR',
  `The provider did not answer within LLM_TIMEOUT_MS, answered an error status, unreadable JSON or more than LLM_MAX_ANSWER_BYTES${what}. The message names the provider and at most an HTTP status or the size limit.`,
]
const invalidAnswer =
  ', or answered without calling the tool or with arguments that do not validate (unknown, hidden or tenant columns, SQL in a field …), twice: the first time it is sent the error and asked again'

/** The AI pilot under /api/v2/embed/runtime (docs/runtime-api.md#ai-pilot); guest token. */
export const docs = operations('embed runtime', {
  aiMetric: {
    summary: 'Turn a question into a metric definition (chat creation)',
    description: `${browser} Asks the workspace's AI provider for one metric answering \`question\`. The model sees only the tenant-visible model (GET /model: names, labels, types, never rows) and answers with a structured definition through the tool \`create_metric\`; the server validates and compiles it exactly as POST /preview would (the token's tenancy), and answers it unsaved, ready for /preview and /metrics. No text from the model becomes SQL. Needs the AI pilot (accessSettings.isAllowAiPilot), the create permission and metricCreationMode CHAT.`,
    auth: GUEST_TOKEN,
    errors: [
      tokenOrEmbedGone,
      outside,
      refused(
        'The AI pilot, creating metrics, or chat creation (metricCreationMode CHAT) is off for this embed and token.',
      ),
      notConfigured,
      providerFailed(invalidAnswer),
    ],
    returns: 'The validated definition and the model’s explanation.',
  },
  aiSummary: {
    summary: "A few sentences on a metric's current result",
    description: `${browser} Runs the metric for this token (its tenancy, RLS and locked filters, narrowed by \`dashboardFilter\` and \`metricFilter\`, as POST /query), then asks the AI provider to summarise those rows (at most 50 of them): no other tenant's row is ever sent. The workspace's \`summaryType\` \`custom\` with a \`customSummaryPrompt\` replaces the default instruction. Needs the AI pilot and the workspace's isEnableMetricSummary.`,
    auth: GUEST_TOKEN,
    errors: [
      tokenOrEmbedGone,
      outside,
      refused('The AI pilot is off for this embed, or metric summaries for the workspace (isEnableMetricSummary).'),
      [
        400,
        'EMBED_PARAM_ERROR',
        "The metric is not one this token sees (another tenant's, another user's private one, or none).",
      ],
      notConfigured,
      [400, 'QUERY_ERROR'],
      [400, 'QUERY_TIMEOUT'],
      [
        400,
        'CLIENT_ID_ERROR',
        'clientId cannot select a tenant: "None" where a tenancy is configured, or no database of the datasource under DATABASE tenancy.',
      ],
      [400, 'DATASOURCE_CONNECTION_ERROR'],
      providerFailed(', or answered no text'),
    ],
    returns: 'The summary, plain text.',
  },
  aiSuggestions: {
    summary: 'Metrics worth building on this model',
    description: `${browser} Asks the AI provider for metrics worth building on the tenant-visible model, through the tool \`suggest_metrics\`; only suggestions that validate and compile for this token (as POST /preview) are answered, at most 10. Needs the AI pilot and the workspace's isEnableMetricSuggestions.`,
    auth: GUEST_TOKEN,
    errors: [
      tokenOrEmbedGone,
      outside,
      refused(
        'The AI pilot is off for this embed, or metric suggestions for the workspace (isEnableMetricSuggestions).',
      ),
      notConfigured,
      providerFailed(invalidAnswer),
    ],
    returns: 'The suggestions, each a name and a validated definition.',
  },
})
