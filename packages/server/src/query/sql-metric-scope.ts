/**
 * SQL metrics, read structurally. The text is parsed by sqlparser-rs (Apache DataFusion's SQL
 * parser, compiled to WebAssembly) in the datasource's own dialect; it must be one read-only
 * query, every table it names must resolve to a table of the semantic model, and the parser's
 * source locations say where each table reference is, so that the compiler can put a
 * tenant-scoped subquery in its place and leave the author's text otherwise untouched (comments,
 * string literals, formatting). Whatever cannot be resolved with certainty is refused (fail
 * closed): a reference that might be a CTE or might be a table, a table function, a reference
 * the parser gives no location for. Before the parser, the text is read as the engine reads it
 * (sql-metric-lexis.ts), and the parser must see the same comments and quoted tokens; every
 * function call must be on the dialect's allow-list (sql-metric-functions.ts).
 */
import { init, parseWithComments } from '@guanmingchiu/sqlparser-ts'
import { badRequest } from '../errors.js'
import { and, type Expr, type Param, type Select, select, star } from './ast.js'
import type { Dialect } from './dialects/base.js'
import { type ModelTable, resolveTable, type SemanticModel } from './model.js'
import { functionAllowed } from './sql-metric-functions.js'
import { agreesWithParser, engineLexemes } from './sql-metric-lexis.js'
import { tenantCondition, tenantTable } from './tenancy/scope.js'
import type { Tenancy } from './tenancy/tenancy.js'
import type { DialectName } from './types.js'

await init()

/** One table reference: the text it spans, the model table it names, how the query refers to it. */
export interface TableReference {
  /** UTF-16 offsets into the (normalised) metric text: the whole `schema.table` name. */
  readonly start: number
  readonly end: number
  /** Canonical `schema.table` of the model table. */
  readonly key: string
  /** The last part of the name as written, when the reference has no alias of its own. */
  readonly implicitAlias: string | null
}

export interface SqlMetricScope {
  /** In text order, not overlapping. */
  readonly tables: readonly TableReference[]
}

/** The SQL parser's dialect; null: the engine has no SQL a metric could be written in (mongodb, search engines). */
const PARSER_DIALECT: Record<
  DialectName,
  | 'postgresql'
  | 'mysql'
  | 'clickhouse'
  | 'duckdb'
  | 'mssql'
  | 'databricks'
  | 'snowflake'
  | 'bigquery'
  | 'generic'
  | null
> = {
  postgres: 'postgresql',
  mysql: 'mysql',
  clickhouse: 'clickhouse',
  duckdb: 'duckdb',
  mssql: 'mssql',
  databricks: 'databricks',
  firebolt: 'postgresql', // Firebolt's SQL is PostgreSQL-compliant (docs.firebolt.io, SQL reference)
  snowflake: 'snowflake',
  bigquery: 'bigquery',
  elasticsearch: null,
  mongodb: null,
  trino: 'generic', // sqlparser has no Trino dialect; its generic one reads ANSI double-quoted SQL
}

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g

/** The text a SQL metric runs: trimmed, without trailing semicolons. */
export function sqlMetricText(text: string): string {
  return text.trim().replace(/;+\s*$/, '')
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Obj = { [key: string]: Json }
interface Ident {
  readonly value: string
  readonly quote_style?: string
  readonly span?: { start: { line: number; column: number }; end: { line: number; column: number } }
}

const isObj = (x: Json | undefined): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x)
const isEmpty = (x: Json | undefined): boolean =>
  x === undefined || x === null || x === false || (Array.isArray(x) && x.length === 0)
/** The single variant key of a serialised Rust enum (`{ "Select": {…} }`), or the string variant. */
const variant = (x: Json | undefined): string =>
  isObj(x) ? (Object.keys(x)[0] ?? '?') : typeof x === 'string' ? x : String(x)

/** Offsets of sqlparser's 1-based line/column (columns count Unicode code points), in constant time. */
class Locator {
  /** The UTF-16 offset of every code point, then text.length. */
  private readonly offsets: number[] = []
  /** Index into `offsets` of each line's first code point. */
  private readonly lines: number[] = [0]
  constructor(text: string) {
    for (let at = 0; at < text.length; ) {
      this.offsets.push(at)
      const code = text.codePointAt(at) as number
      at += code > 0xffff ? 2 : 1
      if (code === 10) this.lines.push(this.offsets.length)
    }
    this.offsets.push(text.length)
  }

  offset(line: number, column: number): number | undefined {
    const first = this.lines[line - 1]
    if (first === undefined || column < 1) return undefined
    return this.offsets[first + column - 1]
  }
}

class Analyzer {
  private readonly locate: Locator
  readonly tables: TableReference[] = []

  constructor(
    private readonly text: string,
    private readonly model: SemanticModel,
    private readonly where: string,
    private readonly dialect: DialectName,
  ) {
    this.locate = new Locator(text)
  }

  private refuse(reason: string): never {
    throw badRequest(`${this.where}: ${reason}`)
  }

  statement(stmt: Json | undefined): void {
    const kind = variant(stmt)
    if (kind !== 'Query' || !isObj(stmt)) {
      this.refuse(`a SQL metric must be one SELECT query, not ${kind.toUpperCase()}`)
    }
    this.query(stmt.Query, [])
  }

  /** A query with its own CTEs: each is in scope after its definition (and in itself if RECURSIVE). */
  private query(q: Json | undefined, scope: readonly Ident[]): void {
    if (!isObj(q)) this.refuse('unexpected query shape')
    if (!isEmpty(q.locks)) this.refuse('a SQL metric must not lock rows (FOR UPDATE / FOR SHARE)')
    if (!isEmpty(q.for_clause)) this.refuse('FOR XML / FOR JSON / FOR BROWSE is not supported in a SQL metric')
    if (!isEmpty(q.settings)) this.refuse('a SQL metric must not change settings (SETTINGS)')
    if (!isEmpty(q.format_clause)) this.refuse('a SQL metric must not choose its output FORMAT')
    if (!isEmpty(q.pipe_operators)) this.refuse('pipe syntax is not supported in a SQL metric')
    let inScope = scope
    const w = q.with
    if (isObj(w)) {
      const recursive = w.recursive === true
      const ctes = Array.isArray(w.cte_tables) ? w.cte_tables : []
      for (const cte of ctes) {
        if (!isObj(cte) || !isObj(cte.alias)) this.refuse('unexpected WITH shape')
        const name = cte.alias.name as unknown as Ident
        this.query(cte.query, recursive ? [...inScope, name] : inScope)
        for (const [k, v] of Object.entries(cte)) if (k !== 'query' && k !== 'alias') this.walk(v, inScope)
        inScope = [...inScope, name]
      }
    } else if (!isEmpty(w)) this.refuse('unexpected WITH shape')
    this.body(q.body, inScope)
    for (const [k, v] of Object.entries(q)) if (k !== 'with' && k !== 'body') this.walk(v, inScope)
  }

  private body(b: Json | undefined, scope: readonly Ident[]): void {
    const kind = variant(b)
    const v = isObj(b) ? b[kind] : undefined
    switch (kind) {
      case 'Select':
        if (!isObj(v)) this.refuse('unexpected SELECT shape')
        if (!isEmpty(v.into)) this.refuse('a SQL metric must not write: SELECT … INTO')
        this.walk(v, scope)
        return
      case 'Query':
        this.query(v, scope)
        return
      case 'SetOperation':
        if (!isObj(v)) this.refuse('unexpected set operation')
        this.body(v.left, scope)
        this.body(v.right, scope)
        return
      case 'Values':
        this.walk(v, scope)
        return
      default:
        this.refuse(`a SQL metric must be one SELECT query, not ${kind.toUpperCase()}`)
    }
  }

  /** Everything else: finds nested queries, table references and function calls. */
  private walk(x: Json | undefined, scope: readonly Ident[]): void {
    if (Array.isArray(x)) {
      for (const i of x) this.walk(i, scope)
      return
    }
    if (!isObj(x)) return
    if ('body' in x && 'locks' in x) {
      this.query(x, scope)
      return
    }
    // a call wherever the AST holds one (expressions, method chains, window specs, FILTER …)
    if (Array.isArray(x.name) && 'uses_odbc_syntax' in x) this.function(x)
    for (const [k, v] of Object.entries(x)) {
      switch (k) {
        case 'relation':
          this.relation(v, scope)
          break
        case 'Insert':
        case 'Update':
        case 'Delete':
        case 'Merge':
          this.refuse(`a SQL metric must not write (${k.toUpperCase()})`)
          break
        case 'Table':
          this.refuse('a table may be named only in FROM or JOIN')
          break
        case 'into':
        case 'locks':
          if (!isEmpty(v)) this.refuse('a SQL metric must not write or lock (INTO / FOR UPDATE)')
          break
        case 'data_type':
          this.dataType(v)
          this.walk(v, scope)
          break
        case 'CompoundIdentifier': {
          // Snowflake's (and Oracle's) `seq.NEXTVAL` advances a sequence: a write, though no call
          const last = Array.isArray(v) ? v[v.length - 1] : undefined
          const name = isObj(last) && typeof last.value === 'string' ? last.value.toLowerCase() : ''
          if (name === 'nextval' || name === 'currval') this.refuse(`a SQL metric must not read a sequence (${name})`)
          this.walk(v, scope)
          break
        }
        default:
          this.walk(v, scope)
      }
    }
  }

  private function(f: Obj): void {
    const parts = (f.name as Json[]).map((p) => {
      const id = isObj(p) && isObj(p.Identifier) ? (p.Identifier as unknown as Ident) : undefined
      if (id === undefined || typeof id.value !== 'string') this.refuse('a function name the parser cannot read')
      return id.value
    })
    if (!functionAllowed(this.dialect, parts)) {
      this.refuse(
        `a SQL metric may call only read-only functions of ${this.dialect}; ${parts.join('.')}() is not one of them (docs/dashboard-document.md, SQL metrics)`,
      )
    }
  }

  /** Casts to PostgreSQL's catalogue types (`::regclass`, `::oid` …) look up catalogue objects. */
  private dataType(t: Json | undefined): void {
    const kind = variant(t)
    const custom = isObj(t) && Array.isArray(t.Custom) ? JSON.stringify(t.Custom[0]).toLowerCase() : ''
    if (/^reg/i.test(kind) || /"value":"(?:oid|xid|xid8|cid|tid|reg[a-z]*|pg_[a-z_]*|txid_snapshot)"/.test(custom)) {
      this.refuse('a SQL metric must not cast to a catalogue type (regclass, oid …)')
    }
  }

  private relation(r: Json | undefined, scope: readonly Ident[]): void {
    const kind = variant(r)
    const v = isObj(r) ? r[kind] : undefined
    switch (kind) {
      case 'Table':
        this.table(v, scope)
        return
      case 'Derived':
      case 'NestedJoin':
        this.walk(v, scope)
        return
      default:
        this.refuse(`${kind} in FROM is not supported in a SQL metric: name tables of the model`)
    }
  }

  private table(t: Json | undefined, scope: readonly Ident[]): void {
    if (!isObj(t) || !Array.isArray(t.name)) this.refuse('unexpected table reference')
    const parts = t.name.map((p) => {
      const id = isObj(p) && isObj(p.Identifier) ? (p.Identifier as unknown as Ident) : undefined
      if (id === undefined || typeof id.value !== 'string') this.refuse('a table name the parser cannot read')
      return id
    })
    const written = parts.map((p) => p.value).join('.')
    for (const [k, v] of Object.entries(t)) {
      if (k !== 'name' && k !== 'alias' && !isEmpty(v)) {
        this.refuse(`table ${written}: arguments, hints, partitions or sampling (${k}) are not supported`)
      }
    }
    for (const p of parts) {
      if (p.quote_style !== undefined && !['"', '`', '['].includes(p.quote_style)) {
        this.refuse(`table ${written}: a string is not a table name`)
      }
    }
    const first = parts[0] as Ident
    const last = parts[parts.length - 1] as Ident
    if (parts.length === 1) {
      const cte = scope.filter((c) => c.value.toLowerCase() === first.value.toLowerCase())
      if (cte.some((c) => c.value === first.value && (c.quote_style ?? '') === (first.quote_style ?? ''))) return
      if (cte.length > 0) {
        this.refuse(`${written} may name the CTE ${cte[0]?.value} or a table; write it exactly as the CTE is named`)
      }
    }
    if (parts.length > 2) this.refuse(`table ${written}: name it as schema.table or table`)
    const key = resolveTable(this.model, written, `${this.where}: table ${written}`).key
    const start = this.position(first, 'start', written)
    const end = this.position(last, 'end', written)
    const implicitAlias = isEmpty(t.alias) ? this.text.slice(this.position(last, 'start', written), end) : null
    this.tables.push({ start, end, key, implicitAlias })
  }

  private position(id: Ident, side: 'start' | 'end', written: string): number {
    const at = id.span?.[side]
    const offset = at === undefined || at.line < 1 ? undefined : this.locate.offset(at.line, at.column)
    if (offset === undefined) this.refuse(`table ${written}: the parser gives no location for it`)
    return offset
  }
}

/** The spans of every string literal and quoted name the parser read, as offsets. */
function quotedSpans(x: Json, at: (line: number, column: number) => number): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = []
  const visit = (y: Json | undefined): void => {
    if (Array.isArray(y)) for (const i of y) visit(i)
    if (!isObj(y)) return
    const span = isObj(y.span) ? (y.span as unknown as NonNullable<Ident['span']>) : undefined
    const kind = variant(y.value)
    const quotedName = typeof y.quote_style === 'string'
    const literal = isObj(y.value) && !['Number', 'Boolean', 'Null', 'Placeholder'].includes(kind)
    if (span !== undefined && (quotedName || literal) && span.start.line > 0) {
      out.push({ start: at(span.start.line, span.start.column), end: at(span.end.line, span.end.column) })
    }
    for (const v of Object.values(y)) visit(v)
  }
  visit(x)
  return out
}

/** `{{name}}` → a same-length numeric literal, so the text parses and offsets stay the same. */
function masked(text: string): string {
  return text.replace(VARIABLE, (m) => `0${' '.repeat(m.length - 1)}`)
}

/**
 * Parses a SQL metric (text already through `sqlMetricText`) in the dialect and resolves its
 * table references against the model. Throws a 400 naming `where` and the reason.
 */
export function analyzeSqlMetric(
  text: string,
  dialect: DialectName,
  model: SemanticModel,
  where: string,
): SqlMetricScope {
  const parser = PARSER_DIALECT[dialect]
  if (parser === null) throw badRequest(`${where}: SQL metrics cannot run on ${dialect} datasources (no SQL)`)
  const refuse = (reason: string): never => {
    throw badRequest(`${where}: ${reason}`)
  }
  const source = masked(text)
  // comments, strings and quoted names as the engine reads them; then the parser must read the same
  const lexemes = engineLexemes(source, dialect, refuse)
  let statements: Json[]
  let parsed: ReturnType<typeof parseWithComments>
  try {
    parsed = parseWithComments(source, parser)
    statements = parsed.statements as unknown as Json[]
  } catch (err) {
    throw badRequest(`${where}: the SQL does not parse as ${dialect}: ${(err as Error).message}`)
  }
  const locate = new Locator(source)
  const at = (line: number, column: number) => locate.offset(line, column) ?? -1
  const comments = parsed.comments.map((c) => ({ start: at(c.startLine, c.startColumn), content: c.content }))
  if (!agreesWithParser(source, lexemes, comments, quotedSpans(statements, at))) {
    refuse(
      `${dialect} reads the comments, strings or quoted names of this SQL differently from the parser; simplify them`,
    )
  }
  if (statements.length !== 1) {
    throw badRequest(`${where}: a SQL metric must be exactly one statement (found ${statements.length})`)
  }
  const analyzer = new Analyzer(text, model, where, dialect)
  analyzer.statement(statements[0])
  const tables = [...analyzer.tables].sort((a, b) => a.start - b.start)
  tables.forEach((t, i) => {
    const next = tables[i + 1]
    if (t.end <= t.start || (next !== undefined && next.start < t.end)) {
      throw badRequest(`${where}: table references the parser locates inconsistently`)
    }
    const written = text.slice(t.start, t.end)
    if (written.trim() === '' || written.includes('{{')) {
      throw badRequest(`${where}: table references the parser locates inconsistently`)
    }
  })
  return { tables }
}

const scopes = new WeakMap<SemanticModel, Map<string, SqlMetricScope>>()
const SCOPES_PER_MODEL = 500

/** analyzeSqlMetric, memoised per model (SQL metric texts come from stored dashboards). */
export function sqlMetricScope(text: string, dialect: DialectName, model: SemanticModel, where: string) {
  let known = scopes.get(model)
  if (known === undefined) {
    known = new Map()
    scopes.set(model, known)
  }
  const key = `${dialect}\u0000${text}`
  let scope = known.get(key)
  if (scope === undefined) {
    scope = analyzeSqlMetric(text, dialect, model, where)
    if (known.size >= SCOPES_PER_MODEL) known.clear()
    known.set(key, scope)
  }
  return scope
}

/**
 * The metric text with each table reference replaced: a tenant table (one with a client column
 * under TABLE tenancy) by `(SELECT * FROM schema.table WHERE client_column = :clientId)`, the
 * comparison exact as the dialect makes it (as structured metrics do, through the tenancy
 * table where the datasource has one); any other model table by its quoted `schema.table`
 * (the tenant's database under DATABASE tenancy), so the engine reads exactly the table the
 * reference was resolved to. A reference without an alias keeps the name it was written with
 * as its alias. `scoped` tells whether any table was scoped to the tenant. `filtersOf` gives
 * further conditions on a table (the dashboard filters the metric declares: sql-metric-filters.ts),
 * ANDed into its subquery.
 */
export function scopeSqlMetric(
  text: string,
  scope: SqlMetricScope,
  model: SemanticModel,
  dialect: Dialect,
  tenancy: Tenancy,
  clientId: Param | null,
  filtersOf: (t: ModelTable) => readonly Expr[] = () => [],
): { pieces: (string | Select)[]; scoped: boolean } {
  const pieces: (string | Select)[] = []
  let scoped = false
  let last = 0
  const source = (t: ModelTable, alias: string) => tenantTable(tenancy, dialect, t, alias)
  for (const ref of scope.tables) {
    pieces.push(text.slice(last, ref.start))
    last = ref.end
    const t = resolveTable(model, ref.key)
    const alias = ref.implicitAlias === null ? '' : ` AS ${ref.implicitAlias}`
    const tenant =
      tenancy.kind === 'table' && clientId !== null ? tenantCondition(tenancy, model, dialect, t, 's', clientId) : null
    const filters = filtersOf(t)
    const condition = filters.length === 0 ? tenant : and([tenant, ...filters])
    if (condition === null) {
      const schema = source(t, 's').schema as string
      pieces.push(`${dialect.quoteIdentifier(schema)}.${dialect.quoteIdentifier(t.name)}${alias}`)
      continue
    }
    if (tenant !== null) scoped = true
    pieces.push(select({ items: [star()], from: source(t, 's'), where: condition }))
    if (alias !== '') pieces.push(alias)
  }
  pieces.push(text.slice(last))
  return { pieces, scoped }
}
