import { describe, expect, it } from 'vitest'
import { Outbox } from './outbox.js'

const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('outbox: the messages of one turn as one', () => {
  it('sends what was posted in one turn as one batch, in order, and the next turn as another', async () => {
    const batches: number[][] = []
    const outbox = new Outbox<number>((batch, done) => {
      batches.push(batch)
      done(null)
    })
    for (let i = 1; i <= 9; i++) outbox.post(i, () => {})
    expect(batches).toEqual([])
    await turn()
    expect(batches).toEqual([[1, 2, 3, 4, 5, 6, 7, 8, 9]])
    outbox.post(10, () => {})
    await turn()
    expect(batches).toEqual([[1, 2, 3, 4, 5, 6, 7, 8, 9], [10]])
    expect(outbox.sent).toBe(2)
  })

  it('a batch the channel refuses fails every message of it, not thrown', async () => {
    const failed: [number, string, boolean][] = []
    const outbox = new Outbox<number>((_batch, done) => done(new Error('channel closed')))
    for (const i of [1, 2]) outbox.post(i, (err, thrown) => failed.push([i, err.message, thrown]))
    await turn()
    expect(failed).toEqual([
      [1, 'channel closed', false],
      [2, 'channel closed', false],
    ])
  })

  it('a message the send cannot serialise fails alone (thrown); the others of its turn are sent', async () => {
    const sent: unknown[][] = []
    const failed: unknown[] = []
    const outbox = new Outbox<unknown>((batch, done) => {
      if (batch.some((m) => typeof m === 'function')) throw new Error('could not be cloned')
      sent.push(batch)
      done(null)
    })
    const bad = () => {}
    for (const m of ['a', bad, 'b']) outbox.post(m, (err, thrown) => failed.push([m, err.message, thrown]))
    await turn()
    expect(sent).toEqual([['a'], ['b']])
    expect(failed).toEqual([[bad, 'could not be cloned', true]])
  })
})
