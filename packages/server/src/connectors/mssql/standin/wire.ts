/**
 * TDS packets and the little-endian reading the stand-in needs ([MS-TDS] 2.2.3 "Packets",
 * https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-tds/7af53667-1b72-4703-8258-7984e838f746).
 * A packet is an 8-byte header — type, status (bit 0x01: end of message), length (big-endian,
 * header included), SPID, packet id, window — then its part of the message. A message is the
 * payloads of its packets up to the one with the end-of-message bit.
 */

export const PACKET = {
  SQL_BATCH: 0x01,
  RPC: 0x03,
  TABULAR_RESULT: 0x04,
  ATTENTION: 0x06,
  LOGIN7: 0x10,
  PRELOGIN: 0x12,
} as const

const HEADER = 8
const END_OF_MESSAGE = 0x01

export interface Message {
  readonly type: number
  readonly payload: Buffer
}

/** Collects bytes into packets and packets into messages. */
export class MessageReader {
  #buffer = Buffer.alloc(0)
  #parts: Buffer[] = []

  /** The messages the bytes complete (none while a message is partial). */
  feed(chunk: Buffer): Message[] {
    this.#buffer = Buffer.concat([this.#buffer, chunk])
    const out: Message[] = []
    while (this.#buffer.length >= HEADER) {
      const length = this.#buffer.readUInt16BE(2)
      if (length < HEADER) throw new Error(`a TDS packet of length ${length}`)
      if (this.#buffer.length < length) break
      const type = this.#buffer[0] as number
      const status = this.#buffer[1] as number
      this.#parts.push(this.#buffer.subarray(HEADER, length))
      this.#buffer = this.#buffer.subarray(length)
      if (status & END_OF_MESSAGE) {
        out.push({ type, payload: Buffer.concat(this.#parts) })
        this.#parts = []
      }
    }
    return out
  }

  /** Bytes received after the last complete packet (what follows a switch of transport). */
  rest(): Buffer {
    const rest = this.#buffer
    this.#buffer = Buffer.alloc(0)
    return rest
  }
}

/** One message as packets of at most `packetSize` bytes (the size the login agreed). */
export function packets(type: number, payload: Buffer, packetSize = 4096): Buffer {
  const room = packetSize - HEADER
  const out: Buffer[] = []
  let id = 1
  for (let offset = 0; offset === 0 || offset < payload.length; offset += room) {
    const part = payload.subarray(offset, offset + room)
    const last = offset + room >= payload.length
    const header = Buffer.alloc(HEADER)
    header[0] = type
    header[1] = last ? END_OF_MESSAGE : 0
    header.writeUInt16BE(HEADER + part.length, 2)
    header.writeUInt16BE(0, 4)
    header[6] = id++ % 256
    header[7] = 0
    out.push(header, part)
    if (last) break
  }
  return Buffer.concat(out)
}

/** A forward-only reader over a payload. */
export class Cursor {
  offset = 0
  constructor(readonly buffer: Buffer) {}

  get remaining(): number {
    return this.buffer.length - this.offset
  }
  u8(): number {
    return this.buffer.readUInt8(this.#advance(1))
  }
  u16(): number {
    return this.buffer.readUInt16LE(this.#advance(2))
  }
  u32(): number {
    return this.buffer.readUInt32LE(this.#advance(4))
  }
  i32(): number {
    return this.buffer.readInt32LE(this.#advance(4))
  }
  u64(): bigint {
    return this.buffer.readBigUInt64LE(this.#advance(8))
  }
  bytes(n: number): Buffer {
    const at = this.#advance(n)
    return this.buffer.subarray(at, at + n)
  }
  /** UCS-2 text of `chars` characters. */
  ucs2(chars: number): string {
    return this.bytes(chars * 2).toString('utf16le')
  }
  /** B_VARCHAR: a byte of length (in characters), then UCS-2. */
  bVarchar(): string {
    return this.ucs2(this.u8())
  }
  #advance(n: number): number {
    if (this.offset + n > this.buffer.length) throw new Error('a TDS payload ended early')
    const at = this.offset
    this.offset += n
    return at
  }
}

/** B_VARCHAR: length in characters (one byte), then UCS-2. */
export function bVarchar(text: string): Buffer {
  return Buffer.concat([Buffer.from([text.length]), Buffer.from(text, 'utf16le')])
}

/** US_VARCHAR: length in characters (two bytes), then UCS-2. */
export function usVarchar(text: string): Buffer {
  const length = Buffer.alloc(2)
  length.writeUInt16LE(text.length)
  return Buffer.concat([length, Buffer.from(text, 'utf16le')])
}

export function u16(n: number): Buffer {
  const b = Buffer.alloc(2)
  b.writeUInt16LE(n)
  return b
}

export function u32(n: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeUInt32LE(n)
  return b
}

export function i32(n: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeInt32LE(n)
  return b
}

export function u64(n: bigint): Buffer {
  const b = Buffer.alloc(8)
  b.writeBigUInt64LE(n)
  return b
}
