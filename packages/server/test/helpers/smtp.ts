import type { AddressInfo } from 'node:net'
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** A message the test SMTP server accepted: the envelope's recipients and the parsed message. */
export interface Received {
  readonly rcptTo: string[]
  readonly mail: ParsedMail
}

export interface TestSmtp {
  /** smtp://127.0.0.1:port for SMTP_URL */
  readonly url: string
  readonly received: Received[]
  /** While true, every message is refused (a 451 at DATA): sends fail and are retried. */
  refuse: boolean
  /** Resolves once `count` messages have been accepted (in total). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>
  close(): Promise<void>
}

/**
 * A real SMTP server (the `smtp-server` library) on loopback, for SMTP_URL in tests: plain SMTP
 * without STARTTLS or AUTH; every accepted message is parsed (mailparser) into `received`.
 */
export async function startSmtp(): Promise<TestSmtp> {
  const received: Received[] = []
  const waiters: { count: number; resolve: () => void }[] = []
  const state = { refuse: false }
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        if (state.refuse) {
          callback(Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 }))
          return
        }
        simpleParser(Buffer.concat(chunks)).then(
          (mail) => {
            received.push({ rcptTo: session.envelope.rcptTo.map((r) => r.address), mail })
            for (const w of waiters.splice(0)) {
              if (received.length >= w.count) w.resolve()
              else waiters.push(w)
            }
            callback()
          },
          (err: Error) => callback(err),
        )
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    get refuse() {
      return state.refuse
    },
    set refuse(value: boolean) {
      state.refuse = value
    },
    waitFor(count, timeoutMs = 20_000) {
      if (received.length >= count) return Promise.resolve(received)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} messages, got ${received.length}`)),
          timeoutMs,
        )
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer)
            resolve(received)
          },
        })
      })
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
