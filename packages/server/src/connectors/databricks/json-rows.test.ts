import { describe, expect, it } from 'vitest'
import { jsonRows, type RawRow } from './json-rows.js'

/** A stream of `text` cut into pieces of `size` bytes, counting the pieces read and whether it was cancelled. */
function pieces(text: string, size: number) {
  const bytes = new TextEncoder().encode(text)
  const state = { pulled: 0, cancelled: false }
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const at = state.pulled * size
        if (at >= bytes.length) return controller.close()
        state.pulled += 1
        controller.enqueue(bytes.slice(at, at + size))
      },
      cancel() {
        state.cancelled = true
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, state }
}

async function all(text: string, size: number): Promise<RawRow[]> {
  const out: RawRow[] = []
  for await (const row of jsonRows(pieces(text, size).stream)) out.push(row)
  return out
}

describe('EXTERNAL_LINKS rows, streamed', () => {
  const rows: RawRow[] = [
    ['1', 'a'],
    ['2', null],
    ['3', 'with ] and [ and "quotes" and \\ and , inside'],
    ['4', 'é – 日本 🎉'],
    [],
  ]
  const text = ` \n${JSON.stringify(rows)}\n`

  it.each([1, 2, 3, 7, 64, 4096])('reads every row whatever the network cuts (pieces of %i bytes)', async (size) => {
    expect(await all(text, size)).toEqual(rows)
  })

  it('an empty array is no rows', async () => {
    expect(await all('[]', 1)).toEqual([])
  })

  it.each(['{"a":1}', '[1,2]', '[["a"]', '[["a"]]]', '', '[["a"]][]'])('refuses %j', async (bad) => {
    await expect(all(bad, 3)).rejects.toThrow(/not a JSON array of rows/)
  })

  it('a reader that stops early cancels the download: the rest is never read', async () => {
    const many = JSON.stringify(Array.from({ length: 10_000 }, (_, i) => [String(i), 'x'.repeat(20)]))
    const { stream, state } = pieces(many, 256)
    const taken: RawRow[] = []
    for await (const row of jsonRows(stream)) {
      taken.push(row)
      if (taken.length === 5) break
    }
    expect(taken.map((r) => r[0])).toEqual(['0', '1', '2', '3', '4'])
    expect(state.cancelled).toBe(true)
    expect(state.pulled).toBeLessThan(3) // of about 1,300 pieces
  })
})
