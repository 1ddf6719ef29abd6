/**
 * A stand-in for an OpenAI-compatible chat-completions endpoint (OpenAI, Azure, vLLM, Ollama …),
 * started by the AI pilot's tests and reached through the real `openai` SDK. It answers from a
 * script, one entry per request, in order (then the `fallback`): a tool call, plain text, an
 * error status, a body that is not JSON, a huge answer streamed as fast as the client reads it
 * (each recorded in `streams`: how much was written, whether the client hung up first), or no
 * answer until the test releases it (slower than any timeout). Every request is recorded (its Authorization header and parsed body), so tests
 * can check what the server sent: the key as Bearer, the tools, no rows in the prompt.
 *
 * What it implements of the API: POST {base}/chat/completions with a JSON body → a
 * `chat.completion` object (choices[0].message with `content` and/or `tool_calls`); anything
 * else 404 in OpenAI's error shape.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** One scripted answer. A function answers from the request (e.g. to echo the tool offered). */
export type Scripted =
  | { readonly toolCall: { readonly name: string; readonly arguments: unknown } }
  | { readonly text: string }
  | { readonly status: number; readonly body?: string }
  | { readonly raw: string }
  /** A chat completion whose text is `bytes` long, written in 64 KiB chunks as the client reads them. */
  | { readonly huge: { readonly bytes: number; readonly announceLength?: boolean } }
  | { readonly hang: true }
  | ((request: RecordedRequest) => Scripted)

export interface RecordedRequest {
  readonly authorization: string | undefined
  readonly path: string
  readonly body: {
    readonly model?: string
    readonly messages?: readonly { role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }[]
    readonly tools?: readonly { type: string; function: { name: string; parameters: unknown } }[]
    readonly tool_choice?: unknown
    readonly [key: string]: unknown
  }
}

/** One `huge` answer: bytes written, whether all were, whether the client closed the connection first. */
export interface StreamedAnswer {
  readonly bytes: number
  written: number
  finished: boolean
  closedEarly: boolean
  /** Resolves when the answer is done: all written, or the connection closed. */
  readonly done: Promise<void>
}

export interface OpenAiStandIn {
  /** The base URL to configure (`http://127.0.0.1:<port>/v1`). */
  readonly baseUrl: string
  readonly requests: RecordedRequest[]
  /** Every `huge` answer, in order. */
  readonly streams: StreamedAnswer[]
  /** Answers to give, in order; after them, `fallback`. */
  script(...answers: Scripted[]): void
  /** Forgets the answers not given yet. */
  clearScript(): void
  fallback: Scripted
  /** Resolves when `n` requests in all have arrived (for ordering, never timing). */
  received(n: number): Promise<void>
  /** Answers every hanging request (with `fallback` … or a 500), as a provider finally would. */
  releaseHanging(): void
  close(): Promise<void>
}

let counter = 0

function completion(model: string, message: Record<string, unknown>, finish: string): string {
  counter++
  return JSON.stringify({
    id: `chatcmpl-standin-${counter}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish, logprobs: null }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  })
}

export async function startOpenAiStandIn(): Promise<OpenAiStandIn> {
  const queue: Scripted[] = []
  const requests: RecordedRequest[] = []
  const streams: StreamedAnswer[] = []
  const hanging = new Set<http.ServerResponse>()
  const waiters: { n: number; resolve: () => void }[] = []
  const standIn = {
    fallback: { text: 'stand-in: nothing scripted' } as Scripted,
  }

  const send = (res: http.ServerResponse, status: number, body: string) => {
    if (res.writableEnded) return
    res.writeHead(status, { 'content-type': 'application/json' }).end(body)
  }

  function answer(res: http.ServerResponse, scripted: Scripted, request: RecordedRequest): void {
    let entry = scripted
    while (typeof entry === 'function') entry = entry(request)
    const model = request.body.model ?? 'stand-in'
    if ('hang' in entry) {
      hanging.add(res)
      res.on('close', () => hanging.delete(res))
      return
    }
    if ('status' in entry) {
      send(
        res,
        entry.status,
        entry.body ?? JSON.stringify({ error: { message: 'stand-in failure', type: 'server_error' } }),
      )
      return
    }
    if ('raw' in entry) {
      send(res, 200, entry.raw)
      return
    }
    if ('huge' in entry) {
      streamHuge(res, entry.huge.bytes, entry.huge.announceLength === true)
      return
    }
    if ('text' in entry) {
      send(res, 200, completion(model, { content: entry.text, refusal: null }, 'stop'))
      return
    }
    const args =
      typeof entry.toolCall.arguments === 'string' ? entry.toolCall.arguments : JSON.stringify(entry.toolCall.arguments)
    send(
      res,
      200,
      completion(
        model,
        {
          content: null,
          refusal: null,
          tool_calls: [
            { id: `call_${counter + 1}`, type: 'function', function: { name: entry.toolCall.name, arguments: args } },
          ],
        },
        'tool_calls',
      ),
    )
  }

  /** `{"id":…,"choices":[{"message":{"content":"xxx…"}}]}` of `bytes` in all, written as read. */
  function streamHuge(res: http.ServerResponse, bytes: number, announceLength: boolean): void {
    const head = Buffer.from(
      '{"id":"chatcmpl-huge","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"',
    )
    const tail = Buffer.from('"},"finish_reason":"stop"}]}')
    const chunk = Buffer.alloc(64 * 1024, 'x')
    let settle: () => void = () => {}
    const answer: StreamedAnswer = {
      bytes,
      written: 0,
      finished: false,
      closedEarly: false,
      done: new Promise<void>((resolve) => {
        settle = resolve
      }),
    }
    streams.push(answer)
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(announceLength ? { 'content-length': String(bytes) } : {}),
    })
    res.on('close', () => {
      if (!answer.finished) answer.closedEarly = true
      settle()
    })
    let left = bytes - head.length - tail.length
    const write = (buffer: Buffer): boolean => {
      answer.written += buffer.length
      return res.write(buffer)
    }
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left)
        left -= piece.length
        if (!write(piece)) return void res.once('drain', pump)
      }
      if (res.destroyed) return
      write(tail)
      answer.finished = true
      res.end(() => settle())
    }
    write(head)
    pump()
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? ''
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        send(
          res,
          404,
          JSON.stringify({ error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } }),
        )
        return
      }
      let body: RecordedRequest['body'] = {}
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        send(res, 400, JSON.stringify({ error: { message: 'body is not JSON', type: 'invalid_request_error' } }))
        return
      }
      const request: RecordedRequest = { authorization: req.headers.authorization, path, body }
      requests.push(request)
      for (const w of waiters.splice(0)) {
        if (requests.length >= w.n) w.resolve()
        else waiters.push(w)
      }
      answer(res, queue.shift() ?? standIn.fallback, request)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return Object.assign(standIn, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    streams,
    script(...answers: Scripted[]) {
      queue.push(...answers)
    },
    clearScript() {
      queue.length = 0
    },
    received(n: number) {
      if (requests.length >= n) return Promise.resolve()
      return new Promise<void>((resolve) => waiters.push({ n, resolve }))
    },
    releaseHanging() {
      for (const res of hanging)
        send(res, 500, JSON.stringify({ error: { message: 'released', type: 'server_error' } }))
      hanging.clear()
    },
    async close() {
      standIn.fallback = { status: 503 }
      for (const res of hanging) res.destroy()
      hanging.clear()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  })
}
