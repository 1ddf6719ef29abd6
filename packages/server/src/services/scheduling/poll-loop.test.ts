import { describe, expect, it } from 'vitest'
import { PollLoop } from './poll-loop.js'

/** A loop whose passes each wait until the test lets them end. */
class HeldLoop extends PollLoop {
  passes = 0
  private release: (() => void) | undefined

  constructor() {
    super(3_600_000, 'test', String)
  }

  async tick(): Promise<string[]> {
    this.passes++
    await new Promise<void>((resolve) => {
      this.release = resolve
    })
    return []
  }

  /** Ends the pass in flight and lets its continuations run. */
  async end(): Promise<void> {
    this.release?.()
    this.release = undefined
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe('PollLoop.wake', () => {
  it('looks at once when idle, and once more right after a pass that was running', async () => {
    const loop = new HeldLoop()
    loop.wake()
    expect(loop.passes).toBe(1)
    loop.wake()
    loop.wake()
    expect(loop.passes).toBe(1) // one pass at a time
    await loop.end()
    expect(loop.passes).toBe(2) // the wakes during the pass: one more, without the timer
    await loop.end()
    expect(loop.passes).toBe(2)
    loop.poll()
    loop.poll() // a poll during a pass is only the timer's: no extra pass
    await loop.end()
    expect(loop.passes).toBe(3)
    await loop.stop()
    loop.wake()
    expect(loop.passes).toBe(3)
  })
})
