/**
 * Rows of an EXTERNAL_LINKS download (a JSON array of arrays, `format: JSON_ARRAY`) read as they
 * arrive: each row is parsed once its closing bracket is in, so memory holds one row (and one
 * network read) at a time, and a reader that stops (the row limit is reached) cancels the rest
 * of the download instead of reading it.
 */
import { NotDatabricksError } from './api.js'

export type RawRow = (string | null)[]

const OPEN = 0x5b // [
const CLOSE = 0x5d // ]
const QUOTE = 0x22 // "
const BACKSLASH = 0x5c // \

/** The rows of `body`, one by one; throws NotDatabricksError when it is not an array of arrays. */
export async function* jsonRows(body: ReadableStream<Uint8Array>): AsyncGenerator<RawRow> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let depth = 0
  let inString = false
  let escaped = false
  let started = false
  let row: Uint8Array[] = []
  let rowStart = -1
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      rowStart = depth >= 2 ? 0 : -1
      for (let i = 0; i < value.length; i++) {
        const byte = value[i] as number
        if (inString) {
          if (escaped) escaped = false
          else if (byte === BACKSLASH) escaped = true
          else if (byte === QUOTE) inString = false
          continue
        }
        if (byte === QUOTE) {
          if (depth < 2) throw notRows()
          inString = true
        } else if (byte === OPEN) {
          depth += 1
          if (depth === 1) {
            if (started) throw notRows()
            started = true
          } else if (depth === 2) rowStart = i
        } else if (byte === CLOSE) {
          depth -= 1
          if (depth < 0) throw notRows()
          if (depth === 1) {
            row.push(value.subarray(rowStart, i + 1))
            yield parseRow(decoder, row)
            row = []
            rowStart = -1
          }
        } else if (depth < 2 && !isSeparator(byte)) throw notRows()
      }
      if (depth >= 2 && rowStart >= 0) row.push(value.slice(rowStart))
    }
    if (!started || depth !== 0) throw notRows()
  } finally {
    // a reader that stopped early: the rest of the download is not wanted
    await reader.cancel().catch(() => undefined)
  }
}

const isSeparator = (byte: number) => byte === 0x2c || byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09

function parseRow(decoder: InstanceType<typeof TextDecoder>, parts: readonly Uint8Array[]): RawRow {
  const text = parts.length === 1 ? decoder.decode(parts[0]) : decoder.decode(concat(parts))
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw notRows()
  }
  if (!Array.isArray(parsed)) throw notRows()
  return parsed as RawRow
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

const notRows = () => new NotDatabricksError('an external link whose content is not a JSON array of rows')
