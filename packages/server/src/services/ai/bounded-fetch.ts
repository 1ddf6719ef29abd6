/**
 * The provider's answer read with a byte limit: the `openai` SDK takes a custom `fetch`, and
 * this one hands it a response whose body stream fails with AnswerTooLarge once more than
 * `maxBytes` have arrived (or at once, when the provider announces a larger Content-Length),
 * cancelling the rest: the connection is closed and nothing past the limit is buffered, however
 * much the provider keeps sending. The SDK's `response.json()` then rejects with that error.
 */
export class AnswerTooLarge extends Error {
  override readonly name = 'AnswerTooLarge'
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`)
  }
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

export function boundedFetch(maxBytes: number, fetchImpl: Fetch = globalThis.fetch): Fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init)
    const body = response.body
    if (body === null) return response
    const announced = Number(response.headers.get('content-length') ?? Number.NaN)
    let received = 0
    const limited =
      announced > maxBytes
        ? failedStream(body, new AnswerTooLarge(maxBytes))
        : body.pipeThrough(
            new TransformStream<Uint8Array, Uint8Array>({
              transform(chunk, controller) {
                received += chunk.byteLength
                // erroring the transform cancels the source: the connection is dropped here
                if (received > maxBytes) controller.error(new AnswerTooLarge(maxBytes))
                else controller.enqueue(chunk)
              },
            }),
          )
    return new Response(limited, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    })
  }
}

/** A stream that fails with `error` on the first read, after cancelling `source`. */
function failedStream(source: ReadableStream<Uint8Array>, error: Error): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      await source.cancel(error).catch(() => undefined)
      controller.error(error)
    },
  })
}
