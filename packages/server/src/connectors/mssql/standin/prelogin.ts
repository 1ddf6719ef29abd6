/**
 * PRELOGIN ([MS-TDS] 2.2.6.5,
 * https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-tds/60f56408-0188-4cd5-8b90-25c6f2423868):
 * a table of options — a byte of token, a big-endian offset and length — closed by 0xFF, then
 * the option data. The ENCRYPTION option decides TLS, as its table in that section says:
 *
 * | client \ server   | ENCRYPT_OFF          | ENCRYPT_ON  | ENCRYPT_REQ | ENCRYPT_NOT_SUP      |
 * | ENCRYPT_OFF       | only the login (TLS) | all         | all         | none                 |
 * | ENCRYPT_ON        | all                  | all         | all         | the connection ends  |
 * | ENCRYPT_NOT_SUP   | none                 | ends        | ends        | none                 |
 *
 * A server with a certificate that does not force encryption answers what the client asked
 * (OFF to OFF, ON to ON); one that forces it (Force Encryption, Azure SQL) answers ENCRYPT_REQ;
 * one with no certificate answers ENCRYPT_NOT_SUP.
 */
import { Cursor } from './wire.js'

export const ENCRYPT = { OFF: 0x00, ON: 0x01, NOT_SUP: 0x02, REQ: 0x03 } as const
export type EncryptValue = (typeof ENCRYPT)[keyof typeof ENCRYPT]

const OPTION = { VERSION: 0x00, ENCRYPTION: 0x01, INSTOPT: 0x02, THREADID: 0x03, MARS: 0x04, FEDAUTH: 0x06 } as const
const TERMINATOR = 0xff

/** What the server does about encryption. */
export type EncryptionPolicy = 'optional' | 'required' | 'unsupported'

export interface ClientPrelogin {
  readonly encryption: number
  readonly fedAuth: boolean
}

export function parsePrelogin(payload: Buffer): ClientPrelogin {
  const cursor = new Cursor(payload)
  const options = new Map<number, Buffer>()
  for (;;) {
    const token = cursor.u8()
    if (token === TERMINATOR) break
    const offset = payload.readUInt16BE(cursor.offset)
    const length = payload.readUInt16BE(cursor.offset + 2)
    cursor.offset += 4
    options.set(token, payload.subarray(offset, offset + length))
  }
  const encryption = options.get(OPTION.ENCRYPTION)?.[0] ?? ENCRYPT.NOT_SUP
  return { encryption, fedAuth: options.has(OPTION.FEDAUTH) }
}

/** The server's ENCRYPTION answer for the client's. */
export function answerEncryption(policy: EncryptionPolicy, client: number): EncryptValue {
  if (policy === 'unsupported') return ENCRYPT.NOT_SUP
  if (policy === 'required') return ENCRYPT.REQ
  return client === ENCRYPT.ON || client === ENCRYPT.REQ
    ? ENCRYPT.ON
    : client === ENCRYPT.OFF
      ? ENCRYPT.OFF
      : ENCRYPT.NOT_SUP
}

/** The response: SQL Server 2022's version (16.0.1000), the encryption answer, no MARS. */
export function preloginResponse(encryption: EncryptValue, client: ClientPrelogin): Buffer {
  const options: [number, Buffer][] = [
    [OPTION.VERSION, Buffer.from([16, 0, 0x03, 0xe8, 0, 0])],
    [OPTION.ENCRYPTION, Buffer.from([encryption])],
    [OPTION.INSTOPT, Buffer.from([0])],
    [OPTION.THREADID, Buffer.alloc(0)],
    [OPTION.MARS, Buffer.from([0])],
    ...(client.fedAuth ? ([[OPTION.FEDAUTH, Buffer.from([0])]] as [number, Buffer][]) : []),
  ]
  const table = Buffer.alloc(options.length * 5 + 1)
  let offset = table.length
  options.forEach(([token, data], i) => {
    table[i * 5] = token
    table.writeUInt16BE(offset, i * 5 + 1)
    table.writeUInt16BE(data.length, i * 5 + 3)
    offset += data.length
  })
  table[table.length - 1] = TERMINATOR
  return Buffer.concat([table, ...options.map(([, data]) => data)])
}
