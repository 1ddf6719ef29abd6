import { Writable } from 'node:stream'
import { describe, expect, it, vi } from 'vitest'
import { createLogger, RequestLogger, redactSecrets, redactUrl } from './logger.js'

function capture(): { lines: string[]; stream: Writable } {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  return { lines, stream }
}

describe('logger redaction', () => {
  it('censors secret-named fields at any depth and in any case, keeping the rest', () => {
    const redacted = redactSecrets({
      apiKey: 'sk_1',
      nested: { Password: 'p', deeper: [{ credentials: { user: 'u' }, name: 'kept' }] },
      count: 3,
    })
    expect(redacted).toEqual({
      apiKey: '[REDACTED]',
      nested: { Password: '[REDACTED]', deeper: [{ credentials: '[REDACTED]', name: 'kept' }] },
      count: 3,
    })
  })

  it('drops objects nested deeper than it inspects instead of writing them', () => {
    let deep: Record<string, unknown> = { token: 'gt_deep' }
    for (let i = 0; i < 12; i++) deep = { next: deep }
    expect(JSON.stringify(redactSecrets(deep))).not.toContain('gt_deep')
  })

  it('applies to every logged object, also from request children, not to errors', () => {
    const { lines, stream } = capture()
    const log = createLogger('info', stream)
    log.child({ reqId: 'r1' }).info({ body: { refreshToken: 'rt_x' }, token: 'gt_top' }, 'hello')
    log.error({ err: new Error('boom') }, 'failed')
    const text = lines.join('')
    expect(text).not.toContain('gt_top')
    expect(text).not.toContain('rt_x')
    expect(text).toContain('"reqId":"r1"')
    expect(text).toContain('"msg":"hello"')
    expect(JSON.parse(lines[1] ?? '{}').err.message).toBe('boom')
  })

  it('redacts secret query parameters in URLs', () => {
    expect(redactUrl('/x?token=abc&b=1&apiKey=k')).toBe('/x?token=[REDACTED]&b=1&apiKey=[REDACTED]')
  })
})

describe('request logger', () => {
  it('writes like a child bound to the request, and makes the child only for a line its level lets through', () => {
    const { lines, stream } = capture()
    const parent = createLogger('warn', stream)
    const child = vi.spyOn(parent, 'child')
    const log = new RequestLogger(parent, { reqId: 'r7' })
    log.info({ token: 'gt_x' }, 'below the level')
    log.debug('below the level')
    expect(child).not.toHaveBeenCalled()
    expect(log.isLevelEnabled('info')).toBe(false)
    expect(log.level).toBe('warn')
    log.warn({ token: 'gt_x' }, 'first')
    log.error('second')
    expect(child).toHaveBeenCalledTimes(1)
    const written = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(written.map((l) => [l.reqId, l.msg, l.level])).toEqual([
      ['r7', 'first', 40],
      ['r7', 'second', 50],
    ])
    expect(written[0]?.token).toBe('[REDACTED]')
  })

  it("gives a route's own level a pino child at once", () => {
    const parent = createLogger('warn', capture().stream)
    const log = RequestLogger.factory(parent, { reqId: 'r8' }, { level: 'debug' })
    expect(log).not.toBeInstanceOf(RequestLogger)
    expect(log.isLevelEnabled('debug')).toBe(true)
    expect(RequestLogger.factory(parent, { reqId: 'r9' }, {})).toBeInstanceOf(RequestLogger)
  })
})
