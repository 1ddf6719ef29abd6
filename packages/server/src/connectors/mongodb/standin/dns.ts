/**
 * A tiny DNS server over UDP (test code) answering the SRV and TXT questions a `mongodb+srv://`
 * connection string makes the driver ask: `_mongodb._tcp.<host>` SRV (the servers) and `<host>`
 * TXT (default options such as authSource). Messages as RFC 1035 §4 lays them out; SRV records
 * as RFC 2782 (priority, weight, port, target); TXT as character-strings (RFC 1035 §3.3.14).
 * The driver's SRV resolution is MongoDB's documented seed-list discovery
 * (https://www.mongodb.com/docs/manual/reference/connection-string/#srv-connection-format); it
 * asks through node:dns, so a test points `dns.setServers` at this server.
 * Any other question is answered NXDOMAIN.
 */
import { createSocket, type Socket } from 'node:dgram'
import type { AddressInfo } from 'node:net'

const TYPE_TXT = 16
const TYPE_SRV = 33
const CLASS_IN = 1

export interface DnsRecords {
  /** name → SRV records */
  readonly srv?: Readonly<Record<string, readonly { port: number; target: string }[]>>
  /** name → TXT strings */
  readonly txt?: Readonly<Record<string, readonly string[]>>
}

function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.')
  return Buffer.concat([
    ...labels.map((l) => Buffer.concat([Buffer.from([Buffer.byteLength(l)]), Buffer.from(l)])),
    Buffer.from([0]),
  ])
}

/** The question's name, type and the offset after the question. */
function readQuestion(msg: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = []
  let i = 12
  while (msg[i] !== 0) {
    const len = msg[i] as number
    labels.push(msg.subarray(i + 1, i + 1 + len).toString())
    i += 1 + len
  }
  i += 1
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(i), end: i + 4 }
}

function record(type: number, data: Buffer): Buffer {
  const head = Buffer.alloc(10)
  head.writeUInt16BE(0xc00c, 0) // the name: a pointer to the question's
  head.writeUInt16BE(type, 2)
  head.writeUInt16BE(CLASS_IN, 4)
  head.writeUInt32BE(60, 6) // TTL
  const length = Buffer.alloc(2)
  length.writeUInt16BE(data.length)
  return Buffer.concat([head.subarray(0, 10), length, data])
}

function answer(query: Buffer, records: DnsRecords): Buffer {
  const { name, type, end } = readQuestion(query)
  const answers: Buffer[] = []
  if (type === TYPE_SRV) {
    for (const r of records.srv?.[name] ?? []) {
      const fixed = Buffer.alloc(6)
      fixed.writeUInt16BE(0, 0) // priority
      fixed.writeUInt16BE(0, 2) // weight
      fixed.writeUInt16BE(r.port, 4)
      answers.push(record(TYPE_SRV, Buffer.concat([fixed, encodeName(r.target)])))
    }
  } else if (type === TYPE_TXT) {
    const strings = records.txt?.[name]
    if (strings) {
      answers.push(
        record(
          TYPE_TXT,
          Buffer.concat(strings.map((t) => Buffer.concat([Buffer.from([Buffer.byteLength(t)]), Buffer.from(t)]))),
        ),
      )
    }
  }
  const known = name in (records.srv ?? {}) || name in (records.txt ?? {})
  const header = Buffer.alloc(12)
  query.copy(header, 0, 0, 2) // id
  header.writeUInt16BE(0x8180 | (known ? 0 : 3), 2) // response, recursion desired + available; NXDOMAIN when unknown
  header.writeUInt16BE(1, 4) // questions
  header.writeUInt16BE(answers.length, 6)
  return Buffer.concat([header, query.subarray(12, end), ...answers])
}

export interface DnsStandIn {
  /** `127.0.0.1:<port>`, for dns.setServers. */
  readonly server: string
  /** Questions asked: `<type> <name>`. */
  readonly questions: string[]
  close(): Promise<void>
}

export async function startDnsStandIn(records: DnsRecords): Promise<DnsStandIn> {
  const socket: Socket = createSocket('udp4')
  const questions: string[] = []
  socket.on('message', (msg, from) => {
    try {
      const q = readQuestion(msg)
      questions.push(`${q.type === TYPE_SRV ? 'SRV' : q.type === TYPE_TXT ? 'TXT' : q.type} ${q.name}`)
      socket.send(answer(msg, records), from.port, from.address)
    } catch {
      // a malformed question goes unanswered
    }
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  const { port } = socket.address() as AddressInfo
  return {
    server: `127.0.0.1:${port}`,
    questions,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  }
}
