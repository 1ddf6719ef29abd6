import { describe, expect, it, vi } from 'vitest'
import { AnswerTooLarge, boundedFetch } from './bounded-fetch.js'

/** A body of `chunks` pieces of `size` bytes, counting what the reader pulled and whether it cancelled. */
function source(chunks: number, size: number) {
  const seen = { pulled: 0, cancelled: false }
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === chunks) return controller.close()
      seen.pulled++
      controller.enqueue(new Uint8Array(size).fill(0x78))
    },
    cancel() {
      seen.cancelled = true
    },
  })
  return { body, seen }
}

describe('boundedFetch', () => {
  it('passes an answer within the limit through whole, status and headers kept', async () => {
    const fetch = boundedFetch(1_000, async () => new Response('{"a":1}', { status: 201, headers: { 'x-a': 'b' } }))
    const res = await fetch('http://provider/x')
    expect(res.status).toBe(201)
    expect(res.headers.get('x-a')).toBe('b')
    expect(await res.json()).toEqual({ a: 1 })
  })

  it('fails the body past the limit and cancels the rest: what is read stays near the limit', async () => {
    const { body, seen } = source(1_000, 1_024)
    const res = await boundedFetch(10_000, async () => new Response(body))('http://provider/x')
    const failure = await res.text().then(
      () => undefined,
      (err: unknown) => err,
    )
    expect(failure).toBeInstanceOf(AnswerTooLarge)
    expect((failure as AnswerTooLarge).maxBytes).toBe(10_000)
    // the pipe cancels the source as the transform fails: on Node 20 before the reader sees the
    // error, from Node 24 on a moment after it
    await vi.waitFor(() => expect(seen.cancelled).toBe(true), { timeout: 1_000 })
    expect(seen.pulled).toBeLessThan(20)
  })

  it('refuses at once an answer that announces a larger Content-Length, without reading it', async () => {
    const { body, seen } = source(1_000, 1_024)
    const res = await boundedFetch(
      10_000,
      async () => new Response(body, { headers: { 'content-length': String(1_024_000) } }),
    )('http://provider/x')
    await expect(res.json()).rejects.toBeInstanceOf(AnswerTooLarge)
    expect(seen.cancelled).toBe(true)
    expect(seen.pulled).toBeLessThanOrEqual(1)
  })
})
