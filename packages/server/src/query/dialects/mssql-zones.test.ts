import { describe, expect, it } from 'vitest'
import { ctx, metric, model } from '../../../test/fixtures/query.js'
import { compileMetric } from '../compile.js'
import { windowsZone } from './mssql-zones.js'
import { getDialect } from './registry.js'

/**
 * SQL Server's AT TIME ZONE takes Windows zone names only
 * (https://learn.microsoft.com/en-us/sql/t-sql/queries/at-time-zone-transact-sql: "the name of
 * the destination time zone … listed in sys.time_zone_info"); CLDR's windowsZones table
 * (https://github.com/unicode-org/cldr/blob/main/common/supplemental/windowsZones.xml) says which
 * Windows zone each IANA zone belongs to. There is no SQL Server here: these are goldens of the
 * compiled SQL and its bound values.
 */
const CONVERTED = "CAST(([t0].[created_at] AT TIME ZONE 'UTC') AT TIME ZONE @p0 AS datetime2) AS [at]"

function compileIn(timezone: string) {
  const m = metric({ from: 'orders', dimensions: [{ name: 'at', column: 'created_at' }] })
  return compileMetric({ metric: m, model: model(), dialect: getDialect('mssql'), context: ctx({ timezone }) })
}

describe('mssql: IANA zones bound as Windows zone names', () => {
  it.each([
    ['Europe/Berlin', 'W. Europe Standard Time'],
    ['America/New_York', 'Eastern Standard Time'],
    ['Asia/Kolkata', 'India Standard Time'],
    ['UTC', 'UTC'],
    ['Etc/GMT+5', 'SA Pacific Standard Time'], // UTC−05:00 all year (POSIX sign)
    ['Europe/Kyiv', 'FLE Standard Time'], // CLDR files it under its old name Europe/Kiev
  ])('%s → %s', (iana, windows) => {
    const out = compileIn(iana)
    expect(out.sql).toBe(`SELECT ${CONVERTED} FROM [public].[orders] AS [t0]`)
    expect(out.params).toEqual([windows])
  })

  it('a zone with no Windows equivalent is a 400 naming it, before any SQL runs', () => {
    expect(() => compileIn('Antarctica/Troll')).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringContaining('"Antarctica/Troll"') }),
    )
    expect(() => windowsZone('Antarctica/Troll')).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST_BODY' }))
  })

  it('a query with no converted column does not need the zone to map', () => {
    const m = metric({ from: 'orders', measures: [{ name: 'n', aggregate: 'count' }] })
    const out = compileMetric({
      metric: m,
      model: model(),
      dialect: getDialect('mssql'),
      context: ctx({ timezone: 'Antarctica/Troll' }),
    })
    expect(out.params).toEqual([])
  })

  it('other dialects bind the IANA name as it is', () => {
    const m = metric({ from: 'orders', dimensions: [{ name: 'at', column: 'created_at' }] })
    const out = compileMetric({
      metric: m,
      model: model(),
      dialect: getDialect('postgres'),
      context: ctx({ timezone: 'Antarctica/Troll' }),
    })
    expect(out.params).toEqual(['Antarctica/Troll'])
  })
})
