import { badRequest } from '../../errors.js'
import type { Expr, JoinType, OrderItem, Param, RawSql, ReaggregateFn, Select, Source, TimeGrain } from '../ast.js'
import type { Slot } from '../bind.js'
import type { DialectName } from '../types.js'

/** SQL text plus its bound values, in placeholder order (or by name p0, p1 … for ClickHouse). */
export interface CompiledSql {
  readonly sql: string
  readonly params: unknown[]
  /** Per parameter: the request value it is made from (bind.ts `rebind`), or null for the shape's own. */
  readonly slots?: readonly (Slot | null)[]
}

/**
 * A SQL dialect: pure (no I/O, no credentials). It renders the AST of `../ast.ts`; values only
 * ever become placeholders, identifiers only pass through `quoteIdentifier`.
 */
/**
 * Where an engine sorts NULL when ORDER BY says neither NULLS FIRST nor NULLS LAST: `low` as the
 * smallest value (first ascending, last descending), `high` as the largest (last ascending,
 * first descending), `last` last either way (DuckDB).
 */
export type NullOrder = 'low' | 'high' | 'last'

export interface Dialect {
  readonly name: DialectName
  /** Where the engine sorts NULL by default; absent: `last`. A rollup read orders as its warehouse would. */
  readonly nullOrder?: NullOrder
  /** MySQL and ClickHouse: a database is a schema (DATABASE tenancy rewrites the qualifier). */
  readonly schemaIsDatabase: boolean
  /**
   * Text compares by the column's collation, which may ignore case, accents or trailing spaces
   * (MySQL/MariaDB, SQL Server by default): a value matches stored texts an exact comparison
   * would not. Rollups compare exactly, so such filters are answered by the warehouse.
   */
  readonly foldsText?: boolean
  quoteIdentifier(name: string): string
  /** A SELECT, or trusted raw SQL with bound parameters (a SQL metric). */
  render(node: Select | RawSql): CompiledSql
  /** The value to bind for an instant compared with a (naive-UTC or zoned) timestamp column of that native type. */
  instantValue(instant: Date, nativeType?: string): unknown
  /**
   * The engine reads a column of this native type in the session's time zone and compares text
   * with it as wall-clock time there (MySQL TIMESTAMP): bound instants are converted (absent: no type).
   */
  readsInSessionZone?(nativeType: string): boolean
  /** The value to bind for a calendar date `YYYY-MM-DD` compared with a date column (absent: the text). */
  dateValue?(date: string): unknown
  /** The value to bind for a wall-clock time `YYYY-MM-DD HH:MM:SS` compared with a zone-converted column (absent: the text). */
  wallValue?(wall: string): unknown
  /** The value to bind for an IANA zone that `convertTimezone` takes (absent: the name itself). */
  zoneValue?(zone: string): unknown
  /** The LIKE pattern (bound as a parameter) of a case-insensitive substring match. */
  containsPattern(needle: string): string
  /** The decimal places the engine rounds an `AVG` of a column of this native type to (absent, undefined: none, a double). */
  averageScale?(nativeType: string): number | undefined
  /** A JS value as the driver takes it (what rendering binds; `rebind` applies it too). */
  bindValue(value: unknown): unknown
  /**
   * A dry run of a rendered statement (validate-dashboard, import): what to run so the engine
   * checks it (names, types, functions) and returns no rows; the second form, if any, is tried
   * when the engine refuses the first.
   */
  dryRun(statement: string): readonly [string, string?]
}

/** Collects bound values; a dialect whose placeholders name their value reuses them. */
export class ParamSink {
  readonly values: unknown[] = []
  readonly slots: (Slot | null)[] = []
  private readonly seen = new Map<Param, string>()
  constructor(private readonly dialect: BaseDialect) {}

  add(p: Param): string {
    const reuse = this.dialect.reusesPlaceholders
    const known = reuse ? this.seen.get(p) : undefined
    if (known !== undefined) return known
    const value = this.dialect.bindValue(p.value)
    const placeholder = this.dialect.placeholder(this.values.length, value)
    this.values.push(value)
    this.slots.push(p.slot ?? null)
    if (reuse) this.seen.set(p, placeholder)
    return placeholder
  }
}

export function assertCount(n: number, what: string): number {
  if (!Number.isSafeInteger(n) || n < 0) throw badRequest(`${what} must be a non-negative integer`)
  return n
}

/**
 * Defaults shared by every dialect (ANSI-ish, Postgres-flavoured). A subclass overrides only
 * what differs: quoting, placeholders, time grains, time zones, LIKE, LIMIT.
 */
export abstract class BaseDialect implements Dialect {
  abstract readonly name: DialectName
  readonly identifierQuote: string = '"'
  readonly identifierQuoteClose: string = '"'
  readonly schemaIsDatabase: boolean = false
  readonly nullOrder: NullOrder = 'last'
  /** Placeholders that name their value ($1, @p0, {p0:T}) can appear twice for one value. */
  readonly reusesPlaceholders: boolean = true
  /** GROUP BY 1, 2 (else the expressions are repeated, which needs reusable placeholders). */
  readonly groupByOrdinal: boolean = true
  /** MSSQL: OFFSET … FETCH requires an ORDER BY. */
  readonly offsetNeedsOrderBy: boolean = false

  quoteIdentifier(name: string): string {
    if (typeof name !== 'string' || name.length === 0) throw badRequest('An identifier must not be empty')
    if (name.includes('\u0000')) throw badRequest('An identifier must not contain a NUL character')
    const close = this.identifierQuoteClose
    return `${this.identifierQuote}${name.replaceAll(close, close + close)}${close}`
  }

  /** The placeholder of the value at `index` (0-based) in `params`. */
  placeholder(index: number, _value: unknown): string {
    return `$${index + 1}`
  }

  /** Last chance to adapt a JS value for the driver. */
  bindValue(value: unknown): unknown {
    return value
  }

  instantValue(instant: Date, _nativeType?: string): unknown {
    return instant.toISOString()
  }

  /** Text, which the engines below compare with a date (strict engines override this). */
  dateValue(date: string): unknown {
    return date
  }

  wallValue(wall: string): unknown {
    return wall
  }

  zoneValue(zone: string): unknown {
    return zone
  }

  /** The LIKE escape character: `escapeLike` puts it before `%`, `_` and itself. */
  readonly likeEscape: string = '\\'

  escapeLike(text: string): string {
    const e = this.likeEscape
    return [...text].map((c) => (c === '%' || c === '_' || c === e ? e + c : c)).join('')
  }

  containsPattern(needle: string): string {
    return `%${this.escapeLike(needle.toLowerCase())}%`
  }

  /**
   * `x` equals `v` exactly (see ExactEquals). `=` is exact in PostgreSQL, DuckDB and ClickHouse;
   * the dialects whose default collations fold case or pad spaces override this. Each call of
   * `v` binds the value (again, where placeholders cannot be reused).
   */
  exactEquals(x: () => string, v: () => string, _nativeType?: string): string {
    return `${x()} = ${v()}`
  }

  contains(expr: string, pattern: string): string {
    return `LOWER(${expr}) LIKE ${pattern} ESCAPE '\\'`
  }

  /** `x` renders the argument; call it once per use (MySQL's `?` must repeat its value). */
  timeGrain(grain: TimeGrain, x: () => string): string {
    return grain === 'hour' ? `date_trunc('hour', ${x()})` : `CAST(date_trunc('${grain}', ${x()}) AS DATE)`
  }

  isZoned(nativeType: string): boolean {
    return /with time zone|timestamptz|datetimeoffset/i.test(nativeType)
  }

  /** Wall-clock time of `expr` in the zone; naive timestamps are taken to be UTC. */
  convertTimezone(expr: string, zone: string, nativeType: string): string {
    return this.isZoned(nativeType)
      ? `(${expr} AT TIME ZONE ${zone})`
      : `((${expr} AT TIME ZONE 'UTC') AT TIME ZONE ${zone})`
  }

  booleanCondition(value: boolean): string {
    return value ? '1 = 1' : '1 = 0'
  }

  joinKeyword(type: JoinType): string {
    return type === 'FULL' ? 'FULL OUTER JOIN' : `${type} JOIN`
  }

  aggregate(fn: string, arg: string | null): string {
    if (arg === null) return 'COUNT(*)'
    switch (fn) {
      case 'count-distinct':
        return `COUNT(DISTINCT ${arg})`
      default:
        return `${fn.toUpperCase()}(${arg})`
    }
  }

  /**
   * The decimal places of this engine's `AVG` of a column of `nativeType`, when it rounds the
   * average to a fixed scale; undefined: the average is a double, or exact to more digits than a
   * double holds. A rollup's average is rounded the same way (`reaggregate`).
   */
  averageScale(_nativeType: string): number | undefined {
    return undefined
  }

  /**
   * A rollup's measure aggregated again (ast.ts `Reaggregate`); `scale` (an average's, the
   * warehouse's `averageScale`) is honoured by the DuckDB dialect, the one rollups are read in.
   */
  reaggregate(fn: ReaggregateFn, args: readonly string[], _scale?: number): string {
    const [a, b] = args
    switch (fn) {
      case 'sum':
      case 'min':
      case 'max':
        return `${fn.toUpperCase()}(${a})`
      case 'count':
        return `CAST(COALESCE(SUM(${a}), 0) AS BIGINT)`
      case 'avg':
        return `CAST(SUM(${a}) AS DOUBLE PRECISION) / NULLIF(SUM(${b}), 0)`
    }
  }

  limitClause(limit: number | null, offset: number | null): string {
    let sql = ''
    if (limit !== null) sql += ` LIMIT ${assertCount(limit, 'limit')}`
    if (offset !== null && offset > 0) sql += ` OFFSET ${assertCount(offset, 'offset')}`
    return sql
  }

  /** `"schema"."name"`, or `"name"` alone where the table has no schema (null or ''). */
  tableName(schema: string | null, name: string): string {
    return schema === null || schema === ''
      ? this.quoteIdentifier(name)
      : `${this.quoteIdentifier(schema)}.${this.quoteIdentifier(name)}`
  }

  /**
   * `SELECT * FROM (<statement>) q WHERE 1 = 0`, so the engine plans it and returns no rows;
   * then the statement as written with `LIMIT 0` appended, for engines that refuse some
   * statements as a subquery (ClickHouse 18: a WITH clause).
   */
  dryRun(statement: string): readonly [string, string?] {
    return [`SELECT * FROM (${statement}) q WHERE 1 = 0`, `${statement}\nLIMIT 0`]
  }

  render(node: Select | RawSql): CompiledSql {
    const sink = new ParamSink(this)
    const sql = node.kind === 'raw' ? this.raw(node, sink) : this.select(node, sink)
    return sink.slots.some((s) => s !== null)
      ? { sql, params: sink.values, slots: sink.slots }
      : { sql, params: sink.values }
  }

  protected select(s: Select, ps: ParamSink): string {
    const items = s.items.map((i) =>
      i.kind === 'star' ? '*' : `${this.expr(i.expr, ps)} AS ${this.quoteIdentifier(i.alias)}`,
    )
    let sql = `SELECT ${items.join(', ')} FROM ${this.source(s.from, ps)}`
    for (const j of s.joins) {
      sql += ` ${this.joinKeyword(j.type)} ${this.source(j.source, ps)} ON ${this.expr(j.on, ps)}`
    }
    if (s.where !== null) sql += ` WHERE ${this.expr(s.where, ps)}`
    if (s.groupBy.length > 0) sql += ` GROUP BY ${s.groupBy.map((i) => this.groupItem(s, i, ps)).join(', ')}`
    sql += this.orderBy(s.orderBy, s.offset !== null || s.limit !== null, ps)
    return sql + this.limitClause(s.limit, s.offset)
  }

  private groupItem(s: Select, index: number, ps: ParamSink): string {
    if (this.groupByOrdinal) return String(index + 1)
    const it = s.items[index]
    if (it === undefined || it.kind === 'star') throw new Error(`GROUP BY refers to no select item ${index}`)
    return this.expr(it.expr, ps)
  }

  private orderBy(items: readonly OrderItem[], paged: boolean, ps: ParamSink): string {
    if (items.length === 0) return paged && this.offsetNeedsOrderBy ? ' ORDER BY (SELECT NULL)' : ''
    return ` ORDER BY ${items.map((o) => this.orderTerm(o, ps)).join(', ')}`
  }

  /** One ORDER BY term: the expression and its direction. */
  protected orderTerm(o: OrderItem, ps: ParamSink): string {
    return `${this.expr(o.expr, ps)} ${o.direction.toUpperCase()}`
  }

  protected source(src: Source, ps: ParamSink): string {
    if (src.kind === 'table') return `${this.tableName(src.schema, src.name)} AS ${this.quoteIdentifier(src.alias)}`
    const inner = src.select.kind === 'raw' ? this.raw(src.select, ps) : this.select(src.select, ps)
    return `(${inner}) AS ${this.quoteIdentifier(src.alias)}`
  }

  protected raw(r: RawSql, ps: ParamSink): string {
    return r.parts
      .map((p) =>
        typeof p === 'string'
          ? p
          : p.kind === 'select'
            ? `(${this.select(p, ps)})`
            : p.exact
              ? this.exactValue(ps.add(p))
              : ps.add(p),
      )
      .join('')
  }

  /**
   * A bound UTC instant (placeholder) compared with a column the engine reads in the session's
   * zone (see Param.sessionZoned): as it is, where a bound instant carries its zone.
   */
  sessionInstant(placeholder: string): string {
    return placeholder
  }

  /** A bound value (placeholder) that compares exactly with whatever it meets (see Param.exact). */
  exactValue(placeholder: string): string {
    return placeholder
  }

  protected expr(e: Expr, ps: ParamSink): string {
    switch (e.kind) {
      case 'column':
        return `${this.quoteIdentifier(e.table)}.${this.quoteIdentifier(e.column)}`
      case 'alias':
        return this.quoteIdentifier(e.name)
      case 'raw':
        return `(${this.raw(e, ps)})`
      case 'param':
        return e.sessionZoned ? this.sessionInstant(ps.add(e)) : ps.add(e)
      case 'aggregate':
        return this.aggregate(e.fn, e.arg === null ? null : this.expr(e.arg, ps))
      case 'reaggregate':
        return this.reaggregate(
          e.fn,
          e.args.map((a) => this.expr(a, ps)),
          e.scale,
        )
      case 'time-grain':
        return this.timeGrain(e.grain, () => this.expr(e.expr, ps))
      case 'timezone': {
        const x = this.expr(e.expr, ps)
        return this.convertTimezone(x, ps.add(e.zone), e.nativeType)
      }
      case 'compare':
        return `${this.expr(e.left, ps)} ${e.op} ${this.expr(e.right, ps)}`
      case 'exact-eq':
        return this.exactEquals(
          () => this.expr(e.expr, ps),
          () => ps.add(e.value),
          e.nativeType,
        )
      case 'in': {
        if (e.values.length === 0) return this.booleanCondition(e.negated)
        const x = this.expr(e.expr, ps)
        return `${x} ${e.negated ? 'NOT IN' : 'IN'} (${e.values.map((v) => ps.add(v)).join(', ')})`
      }
      case 'is-null':
        return `${this.expr(e.expr, ps)} IS ${e.negated ? 'NOT NULL' : 'NULL'}`
      case 'contains': {
        const x = this.expr(e.expr, ps)
        return this.contains(x, ps.add(e.pattern))
      }
      case 'in-subquery': {
        const x = this.expr(e.expr, ps)
        const inner = e.source.kind === 'raw' ? this.raw(e.source, ps) : this.select(e.source, ps)
        const s = this.quoteIdentifier('s')
        return `${x} IN (SELECT ${s}.${this.quoteIdentifier(e.column)} FROM (${inner}) AS ${s})`
      }
      case 'and':
      case 'or':
        return `(${e.items.map((i) => this.expr(i, ps)).join(e.kind === 'and' ? ' AND ' : ' OR ')})`
      case 'not':
        return `NOT (${this.expr(e.expr, ps)})`
      case 'bool':
        return this.booleanCondition(e.value)
    }
  }
}
