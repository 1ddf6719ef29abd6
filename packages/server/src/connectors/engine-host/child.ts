/**
 * The engine process's entry (started by supervisor.ts, never imported by the server): it
 * answers the server's requests with the handlers of each embedded engine, and exits when the
 * server goes away (its IPC channel closes), so it never outlives the server.
 */
import { DUCKDB_HANDLERS } from '../duckdb/engine.js'
import { PARQUET_HANDLERS } from '../duckdb/parquet-writer.js'
import { ROLLUP_READER_HANDLERS } from '../duckdb/rollup-reader.js'
import { Outbox } from './outbox.js'
import { type Handler, type Request, type Response, toWire } from './protocol.js'

const HANDLERS: Readonly<Record<string, Handler>> = {
  ...DUCKDB_HANDLERS,
  ...PARQUET_HANDLERS,
  ...ROLLUP_READER_HANDLERS,
}

/** The answers that end in one turn of this loop go back as one message (outbox.ts). */
const answers = new Outbox<Response>((batch, done) => {
  if (!process.send) throw new Error('no IPC channel')
  process.send(batch, undefined, undefined, done)
})

function answer(message: Response): void {
  answers.post(message, (err, thrown) => {
    // an answer structured clone cannot carry: its request fails instead of never answering
    if (thrown && message.ok) answer({ id: message.id, ok: false, error: toWire(err) })
  })
}

function dispatch(request: Request): void {
  const handler = HANDLERS[request.op]
  const run = handler
    ? handler(request.args as never)
    : Promise.reject(new Error(`unknown engine operation ${String(request.op).slice(0, 60)}`))
  // id 0: a notification (an interrupt), nobody waits for its answer
  run.then(
    (value) => request.id !== 0 && answer({ id: request.id, ok: true, value }),
    (err: unknown) => request.id !== 0 && answer({ id: request.id, ok: false, error: toWire(err) }),
  )
}

// the requests the server made in one turn of its loop, in order
process.on('message', (requests: Request[]) => {
  if (Array.isArray(requests)) for (const request of requests) dispatch(request)
})
process.on('disconnect', () => process.exit(0))
process.send?.({ ready: true })
