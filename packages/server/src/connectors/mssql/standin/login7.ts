/**
 * LOGIN7 ([MS-TDS] 2.2.6.4,
 * https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-tds/773a62b6-ee89-4c02-9e5e-344882630aac):
 * a fixed part of 36 bytes, then offset/length pairs (offsets from the start of the payload,
 * lengths in characters) of the variable fields: host name at 36, user name at 40, password
 * at 44, application at 48, server at 52, (extension 56), library at 60, language at 64,
 * database at 68. The password is obfuscated byte by byte: nibbles swapped, then XOR 0xA5.
 */
export interface Login7 {
  readonly tdsVersion: number
  readonly packetSize: number
  readonly user: string
  readonly password: string
  readonly appName: string
  readonly database: string
}

function field(payload: Buffer, at: number): Buffer {
  const offset = payload.readUInt16LE(at)
  const chars = payload.readUInt16LE(at + 2)
  return payload.subarray(offset, offset + chars * 2)
}

/** Undoes the obfuscation: XOR 0xA5, then swap the nibbles back. */
function clearPassword(bytes: Buffer): string {
  const out = Buffer.from(bytes)
  for (let i = 0; i < out.length; i++) {
    const b = (out[i] as number) ^ 0xa5
    out[i] = ((b & 0x0f) << 4) | (b >> 4)
  }
  return out.toString('utf16le')
}

export function parseLogin7(payload: Buffer): Login7 {
  return {
    tdsVersion: payload.readUInt32LE(4),
    packetSize: payload.readUInt32LE(8),
    user: field(payload, 40).toString('utf16le'),
    password: clearPassword(field(payload, 44)),
    appName: field(payload, 48).toString('utf16le'),
    database: field(payload, 68).toString('utf16le'),
  }
}
