/**
 * The tokens of the stand-in's answers ([MS-TDS] 2.2.7 "Packet Data Token Stream Definition",
 * https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-tds/67b6113b-d722-4b2f-a8e6-4a01c1bad7dd):
 * LOGINACK (2.2.7.14), ENVCHANGE (2.2.7.9), ERROR / INFO (2.2.7.10, 2.2.7.13), DONE, DONEPROC,
 * DONEINPROC (2.2.7.6–2.2.7.8) and RETURNSTATUS (2.2.7.18), in their TDS 7.4 forms.
 * COLMETADATA and ROW are in columns.ts.
 */
import { bVarchar, i32, u16, u64, usVarchar } from './wire.js'

const TOKEN = {
  RETURNSTATUS: 0x79,
  ERROR: 0xaa,
  INFO: 0xab,
  LOGINACK: 0xad,
  ENVCHANGE: 0xe3,
  DONE: 0xfd,
  DONEPROC: 0xfe,
  DONEINPROC: 0xff,
} as const

export const DONE_STATUS = { FINAL: 0x00, MORE: 0x01, ERROR: 0x02, COUNT: 0x10, ATTN: 0x20 } as const

/** The server name our messages carry (SQL Server puts its instance name there). */
export const SERVER_NAME = 'STRATA-STANDIN'

/** SQL_Latin1_General_CP1_CI_AS, the default collation of a SQL Server installed in the US. */
export const COLLATION = Buffer.from([0x09, 0x04, 0xd0, 0x00, 0x34])

function withLength(token: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([token]), u16(body.length), body])
}

/** TDS 7.4 and SQL Server 2022's version, as a login to it is acknowledged. */
export function loginAck(): Buffer {
  const version = Buffer.alloc(4)
  version.writeUInt32BE(0x74000004)
  return withLength(
    TOKEN.LOGINACK,
    Buffer.concat([Buffer.from([1]), version, bVarchar('Microsoft SQL Server'), Buffer.from([16, 0, 0x03, 0xe8])]),
  )
}

export function envChangeDatabase(database: string, previous: string): Buffer {
  return withLength(TOKEN.ENVCHANGE, Buffer.concat([Buffer.from([1]), bVarchar(database), bVarchar(previous)]))
}

export function envChangePacketSize(size: number, previous: number): Buffer {
  return withLength(
    TOKEN.ENVCHANGE,
    Buffer.concat([Buffer.from([4]), bVarchar(String(size)), bVarchar(String(previous))]),
  )
}

export function envChangeCollation(): Buffer {
  return withLength(TOKEN.ENVCHANGE, Buffer.concat([Buffer.from([7, COLLATION.length]), COLLATION, Buffer.from([0])]))
}

export interface ServerMessage {
  readonly number: number
  readonly state: number
  /** Severity: 0–10 informational (INFO), 11+ an error (ERROR). */
  readonly class: number
  readonly message: string
}

export function errorToken(m: ServerMessage): Buffer {
  return withLength(
    m.class > 10 ? TOKEN.ERROR : TOKEN.INFO,
    Buffer.concat([
      i32(m.number),
      Buffer.from([m.state, m.class]),
      usVarchar(m.message),
      bVarchar(SERVER_NAME),
      bVarchar(''),
      i32(1),
    ]),
  )
}

function done(token: number, status: number, rows: number): Buffer {
  return Buffer.concat([Buffer.from([token]), u16(status), u16(0xc1), u64(BigInt(rows))])
}

/** The end of a statement of a batch (`status` from DONE_STATUS). */
export const doneToken = (status: number, rows = 0): Buffer => done(TOKEN.DONE, status, rows)
/** The end of a statement inside a procedure (sp_executesql's statement). */
export const doneInProc = (status: number, rows = 0): Buffer => done(TOKEN.DONEINPROC, status, rows)
/** The end of the procedure call. */
export const doneProc = (status: number): Buffer => done(TOKEN.DONEPROC, status, 0)

export function returnStatus(value: number): Buffer {
  return Buffer.concat([Buffer.from([TOKEN.RETURNSTATUS]), i32(value)])
}
