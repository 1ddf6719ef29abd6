import type OpenAI from 'openai'
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions'
import { ApiError } from '../../errors.js'
import { AnswerTooLarge, boundedFetch } from './bounded-fetch.js'
import type { NamedProvider } from './providers.js'

/** What the AI service sends: a chat completion request without the model (the provider's). */
export type ChatRequest = Omit<ChatCompletionCreateParamsNonStreaming, 'model' | 'stream'>

/**
 * Chat completions through the official `openai` SDK against any OpenAI-compatible endpoint.
 * One attempt per call (`maxRetries: 0`: the service's only retry is the validation retry of
 * docs/operations.md#ai-pilot-llm-providers), bounded by `timeoutMs` (the SDK's timeout and an
 * AbortSignal, which also ends the reading of the body) and by `maxAnswerBytes` (the answer is
 * read through `boundedFetch`: past the limit the connection is dropped, nothing more is
 * buffered), asynchronous like any
 * other I/O. Every failure is a 502 AI_PROVIDER_ERROR naming the provider and at most an HTTP
 * status or the size limit: never the key, never the provider's own error text.
 */
export class LlmClient {
  private readonly clients = new Map<string, OpenAI>()
  private sdk: Promise<typeof import('openai')> | undefined

  /** Failures are logged where they become a 502 (the error handler), by their message only. */
  constructor(
    private readonly timeoutMs: number,
    private readonly maxAnswerBytes: number,
  ) {}

  async complete(named: NamedProvider, request: ChatRequest): Promise<ChatCompletion> {
    // the SDK (~13 MB) loads with the first call: a server without AI never holds it
    this.sdk ??= import('openai')
    const { default: OpenAI } = await this.sdk
    const client = this.client(named, OpenAI)
    try {
      const completion = await client.chat.completions.create(
        { ...request, model: named.provider.model, stream: false },
        { signal: AbortSignal.timeout(this.timeoutMs), timeout: this.timeoutMs, maxRetries: 0 },
      )
      if (!completion || typeof completion !== 'object' || !Array.isArray(completion.choices)) {
        throw providerError(named, 'answered something that is not a chat completion')
      }
      return completion
    } catch (err) {
      if (err instanceof ApiError) throw err
      throw providerError(named, describe(err, this.timeoutMs, OpenAI), err)
    }
  }

  private client({ name, provider }: NamedProvider, OpenAI: typeof import('openai').default): OpenAI {
    let client = this.clients.get(name)
    if (!client) {
      client = new OpenAI({
        baseURL: provider.baseUrl,
        apiKey: provider.apiKey,
        maxRetries: 0,
        timeout: this.timeoutMs,
        fetch: boundedFetch(this.maxAnswerBytes),
      })
      this.clients.set(name, client)
    }
    return client
  }
}

export function providerError(named: NamedProvider, failure: string, cause?: unknown): ApiError {
  return new ApiError(
    'AI_PROVIDER_ERROR',
    502,
    `The AI provider "${named.name.slice(0, 100)}" failed: ${failure}`,
    undefined,
    cause === undefined ? undefined : { cause },
  )
}

/** A provider failure in a few words: the kind, and the HTTP status when there is one. */
function describe(err: unknown, timeoutMs: number, OpenAI: typeof import('openai').default): string {
  const tooLarge = causes(err).find((e): e is AnswerTooLarge => e instanceof AnswerTooLarge)
  if (tooLarge) return `its answer was too large (more than ${tooLarge.maxBytes} bytes; LLM_MAX_ANSWER_BYTES)`
  if (err instanceof OpenAI.APIConnectionTimeoutError || (err instanceof Error && err.name === 'TimeoutError')) {
    return `no answer within ${timeoutMs} ms`
  }
  if (err instanceof OpenAI.APIUserAbortError) return `no answer within ${timeoutMs} ms`
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') return `it answered HTTP ${err.status}`
  if (err instanceof OpenAI.APIConnectionError) return 'it could not be reached'
  if (err instanceof SyntaxError) return 'its answer is not JSON'
  return 'its answer could not be read'
}

/** An error and its causes, outermost first (the SDK may wrap what the body stream failed with). */
function causes(err: unknown): unknown[] {
  const out: unknown[] = []
  for (let e = err; e !== undefined && e !== null && out.length < 5; e = (e as { cause?: unknown }).cause) out.push(e)
  return out
}
