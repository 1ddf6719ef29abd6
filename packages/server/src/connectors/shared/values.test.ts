import { describe, expect, it } from 'vitest'
import { ApiError } from '../../errors.js'
import {
  checkTimeZone,
  decimalNumber,
  formatInstant,
  isoDateTime,
  offsetAt,
  offsetMinutesAt,
  safeInteger,
  sameTimeZone,
} from './values.js'

describe('JSON-safe values shared by the connectors', () => {
  it('integers: exact numbers up to 2^53, strings beyond', () => {
    expect(safeInteger(42n)).toBe(42)
    expect(safeInteger('-9007199254740991')).toBe(-9007199254740991)
    expect(safeInteger('9007199254740993')).toBe('9007199254740993')
    expect(safeInteger(18446744073709551615n)).toBe('18446744073709551615')
    expect(safeInteger('abc')).toBe('abc')
    // short texts (the common counts) take a shorter path to the same answers
    expect(safeInteger('0')).toBe(0)
    expect(safeInteger('-00042')).toBe(-42)
    expect(safeInteger('999999999999999')).toBe(999999999999999)
    expect(safeInteger('-99999999999999')).toBe(-99999999999999)
    for (const text of ['1e5', ' 12', '0x1A', '12.0', '', '-', '+7']) expect(safeInteger(text)).toBe(text)
  })

  it('decimals become numbers; NaN and infinities stay strings', () => {
    expect(decimalNumber('10.50')).toBe(10.5)
    expect(decimalNumber('NaN')).toBe('NaN')
    expect(decimalNumber(Number.POSITIVE_INFINITY)).toBe('Infinity')
  })

  it('date-time text → ISO 8601 with T; offsets normalised; wall-clock values keep none', () => {
    expect(isoDateTime('2024-01-02 03:04:05')).toBe('2024-01-02T03:04:05')
    expect(isoDateTime('2024-01-02 03:04:05.123456+09')).toBe('2024-01-02T03:04:05.123456+09:00')
    expect(isoDateTime('2024-01-02 03:04:05-0330')).toBe('2024-01-02T03:04:05-03:30')
    expect(isoDateTime('1900-01-01 00:00:00+00:09:21')).toBe('1900-01-01T00:00:00+00:09:21')
    expect(isoDateTime('infinity')).toBe('infinity')
  })

  it('instants render in a zone, with its offset at that instant (DST aware)', () => {
    const newYear = 1704067200000000n // 2024-01-01T00:00:00Z in µs
    expect(formatInstant(newYear, 'Asia/Tokyo')).toBe('2024-01-01T09:00:00+09:00')
    expect(formatInstant(newYear, 'America/New_York')).toBe('2023-12-31T19:00:00-05:00')
    expect(formatInstant(newYear + 1_500n, 'UTC')).toBe('2024-01-01T00:00:00.0015+00:00')
    expect(formatInstant(-1n, 'UTC')).toBe('1969-12-31T23:59:59.999999+00:00')
    expect(offsetAt('America/New_York', Date.UTC(2024, 6, 1))).toBe('-04:00')
    expect(offsetAt('America/New_York', Date.UTC(2024, 0, 1))).toBe('-05:00')
    expect(offsetAt('Asia/Kolkata', Date.UTC(2024, 0, 1))).toBe('+05:30')
    expect(offsetMinutesAt('UTC', 0)).toBe(0)
  })

  it('time zones: IANA names only, aliases compare equal', () => {
    expect(() => checkTimeZone('Europe/Paris')).not.toThrow()
    for (const bad of ['Mars/Olympus', "UTC'; drop", '', 'x'.repeat(100)]) {
      expect(() => checkTimeZone(bad)).toThrow(ApiError)
    }
    expect(sameTimeZone('Etc/UTC', 'UTC')).toBe(true)
    expect(sameTimeZone('UTC', 'Asia/Tokyo')).toBe(false)
  })
})
