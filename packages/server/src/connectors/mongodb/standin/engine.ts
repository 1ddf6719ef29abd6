/**
 * The stand-in's evaluator: aggregation pipelines over in-memory collections, run by `mingo`
 * (an implementation of MongoDB's query and aggregation language in JS). Two operators are
 * replaced here because mingo's time zone handling is partial (it takes only `Area/City` names
 * and ignores the zone for `hour`): `$dateTrunc` and `$dateToString`, implemented from MongoDB's
 * documentation (IANA names, `UTC` and `±hh:mm` offsets; `startOfWeek`; the format specifiers
 * %Y %m %d %H %M %S %L %%). Not MongoDB: this proves our pipelines' semantics as far as mingo
 * follows MongoDB's documentation, not the server's planner.
 */
import { Aggregator } from 'mingo/aggregator'
import { Context } from 'mingo/core'
import * as accumulator from 'mingo/operators/accumulator'
import * as expression from 'mingo/operators/expression'
import * as pipeline from 'mingo/operators/pipeline'
import * as projection from 'mingo/operators/projection'
import * as query from 'mingo/operators/query'
import * as window from 'mingo/operators/window'
import { fromWall, toWall, type WallTime } from '../../../query/zoned-time.js'

type Doc = Record<string, unknown>
type Compute = (obj: unknown, expr: unknown, options: unknown) => unknown

/** An error the stand-in answers with MongoDB's code. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly codeName: string,
  ) {
    super(message)
  }
}

const OFFSET = /^([+-])(\d{2}):?(\d{2})$/

/** The wall clock of `date` in `zone` (an IANA name, UTC, or a ±hh:mm offset). */
function wallOf(date: Date, zone: string | undefined): WallTime & { ms: number } {
  const ms = date.getUTCMilliseconds()
  const m = OFFSET.exec(zone ?? '')
  if (m) {
    const shifted = new Date(date.getTime() + offsetMs(m))
    return { ...toWall(shifted, 'UTC'), ms }
  }
  return { ...toWall(date, zone ?? 'UTC'), ms }
}

function instantOf(wall: WallTime, zone: string | undefined): Date {
  const m = OFFSET.exec(zone ?? '')
  if (m) return new Date(fromWall(wall, 'UTC').getTime() - offsetMs(m))
  return fromWall(wall, zone ?? 'UTC')
}

function offsetMs(m: RegExpExecArray): number {
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000
}

function checkZone(zone: unknown, op: string): string | undefined {
  if (zone === undefined || zone === null) return undefined
  if (typeof zone !== 'string') throw new CommandError(`${op}: timezone must be a string`, 40517, 'Location40517')
  if (OFFSET.test(zone)) return zone
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
  } catch {
    throw new CommandError(`${op}: unrecognized time zone identifier: "${zone}"`, 40485, 'Location40485')
  }
  return zone
}

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']

function dateTrunc(evaluate: Compute): Compute {
  return (obj, expr, options) => {
    const args = evaluate(obj, expr, options) as Doc
    const { date, unit } = args
    if (date === null || date === undefined || unit === null || unit === undefined) return null
    if (!(date instanceof Date))
      throw new CommandError("$dateTrunc requires 'date' to be a date", 5439012, 'Location5439012')
    const zone = checkZone(args.timezone, '$dateTrunc')
    const w = wallOf(date, zone)
    const midnight = { ...w, hour: 0, minute: 0, second: 0 }
    switch (unit) {
      case 'hour':
        return instantOf({ ...w, minute: 0, second: 0 }, zone)
      case 'day':
        return instantOf(midnight, zone)
      case 'week': {
        const start = DAYS.findIndex((d) =>
          d.startsWith(
            String(args.startOfWeek ?? 'sunday')
              .toLowerCase()
              .slice(0, 3),
          ),
        )
        const dow = new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay()
        const back = (dow - start + 7) % 7
        const d = new Date(Date.UTC(w.year, w.month - 1, w.day - back))
        return instantOf(
          { ...midnight, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() },
          zone,
        )
      }
      case 'month':
        return instantOf({ ...midnight, day: 1 }, zone)
      case 'quarter':
        return instantOf({ ...midnight, day: 1, month: w.month - ((w.month - 1) % 3) }, zone)
      case 'year':
        return instantOf({ ...midnight, day: 1, month: 1 }, zone)
      default:
        throw new CommandError(
          `$dateTrunc: unit ${String(unit)} is not supported by the stand-in`,
          5439014,
          'Location5439014',
        )
    }
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

function dateToString(evaluate: Compute): Compute {
  return (obj, expr, options) => {
    const args = evaluate(obj, expr, options) as Doc
    if (args.date === null || args.date === undefined) return args.onNull ?? null
    if (!(args.date instanceof Date)) throw new CommandError("can't convert to a date", 16006, 'Location16006')
    const w = wallOf(args.date, checkZone(args.timezone, '$dateToString'))
    const format = typeof args.format === 'string' ? args.format : '%Y-%m-%dT%H:%M:%S.%LZ'
    const values: Record<string, string> = {
      Y: pad(w.year, 4),
      m: pad(w.month),
      d: pad(w.day),
      H: pad(w.hour),
      M: pad(w.minute),
      S: pad(w.second),
      L: pad(w.ms, 3),
      '%': '%',
    }
    return format.replace(/%(.)/g, (_, c: string) => {
      const v = values[c]
      if (v === undefined) throw new CommandError(`Invalid format character '%${c}'`, 18536, 'Location18536')
      return v
    })
  }
}

/** Evaluates an operator's argument object (mingo's own expression evaluation). */
const evaluateArgs: Compute = (obj, expr, options) =>
  (expression as unknown as Record<string, Compute>).$let?.(obj, { vars: {}, in: expr }, options)

const CONTEXT = Context.init({
  accumulator,
  expression: {
    ...expression,
    $dateTrunc: dateTrunc(evaluateArgs),
    $dateToString: dateToString(evaluateArgs),
  },
  pipeline,
  projection,
  query,
  window,
} as never)

/** Runs `stages` over `documents`; `collection` resolves `$lookup`'s `from` in the same database. */
export function runPipeline(documents: Doc[], stages: Doc[], collection: (name: string) => Doc[]): Doc[] {
  try {
    const aggregator = new Aggregator(stages, {
      context: CONTEXT,
      collectionResolver: collection,
      scriptEnabled: false,
      useStrictMode: true,
    } as never)
    return aggregator.run(documents) as Doc[]
  } catch (err) {
    if (err instanceof CommandError) throw err
    // mingo's own refusals: an invalid pipeline or expression
    throw new CommandError(err instanceof Error ? err.message : String(err), 2, 'BadValue')
  }
}
