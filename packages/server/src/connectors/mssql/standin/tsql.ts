/**
 * The stand-in's translation of the T-SQL our mssql dialect and connector emit into PostgreSQL,
 * which runs it. Explicit and small; anything else fails loudly rather than run differently:
 * - `[name]` → `"name"`; the schema `dbo` → the PostgreSQL schema behind the database;
 *   `INFORMATION_SCHEMA.COLUMNS` / `.TABLES` and `sys.databases` → subqueries that answer with
 *   SQL Server's names and type names (`int`, `nvarchar`, `datetime2` …);
 * - `@p0` … → the bound value as a literal (typed values cast to their type, text left
 *   untyped so it converts where it is used, as T-SQL converts nvarchar);
 * - `N'…'` → `'…'`; `@@DATEFIRST` → 7 (us_english); `COLLATE <any>` → `COLLATE "C"` (binary);
 * - `TOP (n)` → `LIMIT n`; OFFSET … ROWS FETCH NEXT … ROWS ONLY is PostgreSQL syntax too;
 * - each ORDER BY term gets `NULLS FIRST` (ascending) or `NULLS LAST` (descending): SQL Server
 *   sorts NULL as the lowest value (https://learn.microsoft.com/en-us/sql/t-sql/queries/select-order-by-clause-transact-sql),
 *   PostgreSQL as the highest;
 * - `CAST(x AS t)` and `CONVERT(t, x)` with SQL Server type names; LEN (trailing spaces not
 *   counted), CONCAT (every argument as text), DATEFROMPARTS, YEAR/MONTH/DAY, DATEPART, DATEADD,
 *   DATEDIFF (session functions, session.ts), ISNULL, IIF, DB_NAME(), HAS_DBACCESS;
 * - `AT TIME ZONE <'literal' | @pN>` → the IANA zone of that Windows name (zones.ts), or SQL
 *   Server's error for any other name: SQL Server takes Windows names only.
 */
import { isPunct, keyword, type Token, tokenize } from './tokens-sql.js'

export interface TranslationScope {
  /** The SQL Server database the session is in. */
  readonly database: string
  /** Its PostgreSQL schema (what `dbo` names). */
  readonly schema: string
  /** Every database of the stand-in (sys.databases). */
  readonly databases: readonly string[]
  /** A bound parameter by name (without `@`): its value as text and its PostgreSQL type (undefined: text). */
  readonly param: (name: string) => { readonly value: string | null; readonly cast: string | undefined } | undefined
  /** The IANA zone for a name AT TIME ZONE is given; throws SQL Server's error for a name it does not know. */
  readonly zone: (name: string) => string
}

export class UnsupportedSql extends Error {}

export class UndeclaredVariable extends Error {
  constructor(readonly variable: string) {
    super(`Must declare the scalar variable "@${variable}".`)
  }
}

type Node = Token | { readonly kind: 'group'; readonly nodes: Node[] }

function group(tokens: readonly Token[]): Node[] {
  const stack: Node[][] = [[]]
  for (const t of tokens) {
    if (isPunct(t, '(')) stack.push([])
    else if (isPunct(t, ')')) {
      const nodes = stack.pop()
      const parent = stack.at(-1)
      if (!nodes || !parent) throw new UnsupportedSql("Incorrect syntax near ')'.")
      parent.push({ kind: 'group', nodes })
    } else stack.at(-1)?.push(t)
  }
  if (stack.length !== 1) throw new UnsupportedSql("Incorrect syntax near '('.")
  return stack[0] as Node[]
}

const lit = (text: string): string => `'${text.replaceAll("'", "''")}'`
const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`
const isGroup = (n: Node | undefined): n is { kind: 'group'; nodes: Node[] } => n?.kind === 'group'

const DATE_PARTS: Readonly<Record<string, string>> = {
  YEAR: 'year',
  YY: 'year',
  YYYY: 'year',
  QUARTER: 'quarter',
  QQ: 'quarter',
  Q: 'quarter',
  MONTH: 'month',
  MM: 'month',
  M: 'month',
  DAYOFYEAR: 'dayofyear',
  DY: 'dayofyear',
  Y: 'dayofyear',
  DAY: 'day',
  DD: 'day',
  D: 'day',
  WEEK: 'week',
  WK: 'week',
  WW: 'week',
  WEEKDAY: 'weekday',
  DW: 'weekday',
  W: 'weekday',
  HOUR: 'hour',
  HH: 'hour',
  MINUTE: 'minute',
  MI: 'minute',
  N: 'minute',
  SECOND: 'second',
  SS: 'second',
  S: 'second',
}

/** SQL Server type names → PostgreSQL's. */
function pgType(nodes: readonly Node[]): string {
  const name = keyword(nodes.find((n) => n.kind === 'word') as Token | undefined)
  const args = (nodes.find(isGroup)?.nodes ?? []).filter((n): n is Token => n.kind === 'number' || n.kind === 'word')
  const size = args[0]?.value.toUpperCase()
  const sized = (base: string) => (size === undefined || size === 'MAX' ? 'text' : `${base}(${size})`)
  switch (name) {
    case 'INT':
    case 'INTEGER':
      return 'int'
    case 'BIGINT':
      return 'bigint'
    case 'SMALLINT':
    case 'TINYINT':
      return 'smallint'
    case 'BIT':
      return 'boolean'
    case 'FLOAT':
      return 'double precision'
    case 'REAL':
      return 'real'
    case 'DECIMAL':
    case 'NUMERIC':
      return args.length === 0 ? 'numeric(18, 0)' : `numeric(${args.map((a) => a.value).join(', ')})`
    case 'MONEY':
      return 'numeric(19, 4)'
    case 'DATE':
      return 'date'
    case 'TIME':
      return 'time'
    case 'DATETIME2':
    case 'DATETIME':
    case 'SMALLDATETIME':
      return 'timestamp'
    case 'DATETIMEOFFSET':
      return 'timestamptz'
    case 'NVARCHAR':
    case 'VARCHAR':
    case 'NCHAR':
    case 'CHAR':
      return sized('varchar')
    case 'SYSNAME':
      return 'varchar(128)'
    case 'UNIQUEIDENTIFIER':
      return 'uuid'
    default:
      throw new UnsupportedSql(`Type ${name ?? '?'} is not a defined system type.`)
  }
}

const CLAUSE_WORDS = new Set([
  'WHERE',
  'ORDER',
  'GROUP',
  'HAVING',
  'INNER',
  'LEFT',
  'RIGHT',
  'FULL',
  'CROSS',
  'JOIN',
  'ON',
  'UNION',
  'OPTION',
])

/** Words that end an ORDER BY list at its level. */
const ORDER_ENDS = new Set(['OFFSET', 'FETCH', 'UNION', 'EXCEPT', 'INTERSECT', 'FOR', 'OPTION'])

class Translator {
  constructor(readonly scope: TranslationScope) {}

  list(nodes: readonly Node[]): string {
    let out = ''
    let limit: string | undefined
    // inside an ORDER BY list of this level, and whether its current term is descending
    let ordering = false
    let descending = false
    let previousWord: string | undefined
    const endTerm = () => {
      if (ordering) out = `${out.trimEnd()} ${descending ? 'NULLS LAST' : 'NULLS FIRST'}`
      descending = false
    }
    const next = (i: number): [Node | undefined, number] => {
      let j = i + 1
      while (nodes[j]?.kind === 'space') j++
      return [nodes[j], j]
    }
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i] as Node
      if (isGroup(node)) {
        out += `(${this.list(node.nodes)})`
        continue
      }
      const t = node as Token
      const [after, afterAt] = next(i)
      switch (t.kind) {
        case 'space':
          out += ' '
          continue
        case 'string':
          out += lit(t.value)
          continue
        case 'number':
        case 'punct':
          if (t.value === ',') endTerm()
          out += t.value
          continue
        case 'ident':
          out += isPunct(after, '.') && t.value.toLowerCase() === 'dbo' ? quoted(this.scope.schema) : quoted(t.value)
          continue
        case 'word':
          break
      }
      const word = t.value.toUpperCase()
      if (ordering && ORDER_ENDS.has(word)) {
        endTerm()
        out += ' '
        ordering = false
      }
      if (ordering && word === 'DESC') descending = true
      if (word === 'BY' && previousWord === 'ORDER') ordering = true
      previousWord = word
      if (word === '@@DATEFIRST') {
        out += '7'
        continue
      }
      if (word.startsWith('@')) {
        out += this.param(t.value.slice(1))
        continue
      }
      if (word === 'DBO' && isPunct(after, '.')) {
        out += quoted(this.scope.schema)
        continue
      }
      if ((word === 'INFORMATION_SCHEMA' || word === 'SYS') && isPunct(after, '.')) {
        const [view, viewAt] = next(afterAt)
        const [following] = next(viewAt)
        out += this.catalog(`${word}.${keyword(view) ?? '?'}`)
        const aliased =
          keyword(following) === 'AS' ||
          following?.kind === 'ident' ||
          (following?.kind === 'word' && !CLAUSE_WORDS.has(following.value.toUpperCase()))
        if (!aliased) out += ` AS ${(view as Token).value.toLowerCase()}`
        i = viewAt
        continue
      }
      if (word === 'COLLATE') {
        out += 'COLLATE "C"'
        i = afterAt
        continue
      }
      if (word === 'AT' && keyword(after) === 'TIME') {
        const [zoneWord, zoneAt] = next(afterAt)
        const [operand, operandAt] = next(zoneAt)
        if (keyword(zoneWord) !== 'ZONE') throw new UnsupportedSql("Incorrect syntax near 'TIME'.")
        out += `AT TIME ZONE ${this.zone(operand)}`
        i = operandAt
        continue
      }
      if (word === 'TOP') {
        const count = isGroup(after) ? after.nodes.find((n) => n.kind === 'number') : after
        if (count === undefined || count.kind !== 'number')
          throw new UnsupportedSql('the stand-in reads TOP (n) with a number only')
        limit = (count as Token).value
        i = afterAt
        continue
      }
      if (isGroup(after) && afterAt === i + 1) {
        out += this.call(word, after.nodes)
        i = afterAt
        continue
      }
      out += t.value
    }
    endTerm()
    return limit === undefined ? out : `${out} LIMIT ${limit}`
  }

  /**
   * A bound value, written into the PostgreSQL text as a literal (the stand-in's own, quotes
   * doubled: complete for PostgreSQL's standard strings). A text value stays an untyped
   * literal, which PostgreSQL converts where it is used as T-SQL converts nvarchar; and the
   * same parameter is the same text everywhere, so GROUP BY matches the SELECT list as T-SQL
   * matches `@p0` with `@p0`.
   */
  param(name: string): string {
    const p = this.scope.param(name)
    if (!p) throw new UndeclaredVariable(name)
    if (p.value === null) return p.cast === undefined ? 'NULL' : `CAST(NULL AS ${p.cast})`
    return p.cast === undefined ? lit(p.value) : `CAST(${lit(p.value)} AS ${p.cast})`
  }

  zone(operand: Node | undefined): string {
    const t = operand?.kind === 'group' ? undefined : operand
    let name: string | null
    if (t?.kind === 'string') name = t.value
    else if (t?.kind === 'word' && t.value.startsWith('@') && !t.value.startsWith('@@')) {
      const p = this.scope.param(t.value.slice(1))
      if (!p) throw new UndeclaredVariable(t.value.slice(1))
      name = p.value
    } else throw new UnsupportedSql('the stand-in reads AT TIME ZONE with a string or a parameter only')
    return name === null ? 'CAST(NULL AS text)' : lit(this.scope.zone(name))
  }

  catalog(name: string): string {
    const s = lit(this.scope.schema)
    const db = lit(this.scope.database)
    switch (name) {
      case 'INFORMATION_SCHEMA.COLUMNS':
        return `(SELECT CAST(${db} AS text) AS table_catalog, CAST('dbo' AS text) AS table_schema, CAST(table_name AS text) AS table_name, CAST(column_name AS text) AS column_name, CAST(ordinal_position AS int) AS ordinal_position, CAST(is_nullable AS text) AS is_nullable, ${SQLSERVER_TYPE} AS data_type FROM information_schema.columns WHERE table_schema = ${s})`
      case 'INFORMATION_SCHEMA.TABLES':
        return `(SELECT CAST(${db} AS text) AS table_catalog, CAST('dbo' AS text) AS table_schema, CAST(table_name AS text) AS table_name, CAST(CASE table_type WHEN 'VIEW' THEN 'VIEW' ELSE 'BASE TABLE' END AS text) AS table_type FROM information_schema.tables WHERE table_schema = ${s})`
      case 'SYS.DATABASES':
        return `(SELECT CAST(name AS text) AS name, 5 AS database_id, 0 AS state FROM (VALUES ${this.scope.databases.map((d) => `(${lit(d)})`).join(', ')}) AS d(name))`
      default:
        throw new UnsupportedSql(`Invalid object name '${name}'.`)
    }
  }

  call(name: string, nodes: readonly Node[]): string {
    const args = split(nodes)
    const arg = (i: number) => this.list(args[i] ?? []).trim()
    const all = () => args.map((_, i) => arg(i))
    const part = () => {
      const p = DATE_PARTS[keyword((args[0] ?? []).find((n) => n.kind === 'word') as Token | undefined) ?? '']
      if (p === undefined) throw new UnsupportedSql(`'${arg(0)}' is not a recognized datepart option.`)
      return lit(p)
    }
    const dateArg = (i: number) => (arg(i) === '0' ? "TIMESTAMP '1900-01-01 00:00:00'" : arg(i))
    switch (name) {
      case 'CAST':
      case 'TRY_CAST': {
        const asAt = nodes.findLastIndex((n) => keyword(n as Token) === 'AS')
        if (asAt < 0) throw new UnsupportedSql("Incorrect syntax near 'CAST'.")
        return `CAST(${this.list(nodes.slice(0, asAt)).trim()} AS ${pgType(nodes.slice(asAt + 1))})`
      }
      case 'CONVERT':
      case 'TRY_CONVERT':
        return `CAST(${arg(1)} AS ${pgType(args[0] ?? [])})`
      case 'LEN':
        return `char_length(rtrim(CAST(${arg(0)} AS text), ' '))`
      case 'CONCAT':
        return `concat(${all()
          .map((a) => `CAST(${a} AS text)`)
          .join(', ')})`
      case 'DATEFROMPARTS':
        return `make_date(${all()
          .map((a) => `CAST(${a} AS int)`)
          .join(', ')})`
      case 'YEAR':
      case 'MONTH':
      case 'DAY':
        return `CAST(EXTRACT(${name} FROM ${arg(0)}) AS int)`
      case 'DATEPART':
        return `pg_temp.datepart(${part()}, ${arg(1)})`
      case 'DATEADD':
        return `pg_temp.dateadd(${part()}, ${arg(1)}, ${dateArg(2)})`
      case 'DATEDIFF':
        return `pg_temp.datediff(${part()}, ${dateArg(1)}, ${dateArg(2)})`
      case 'ISNULL':
        return `coalesce(${all().join(', ')})`
      case 'IIF':
        return `(CASE WHEN ${arg(0)} THEN ${arg(1)} ELSE ${arg(2)} END)`
      case 'DB_NAME':
        return lit(this.scope.database)
      case 'HAS_DBACCESS':
        return '1'
      case 'GETDATE':
      case 'SYSDATETIME':
      case 'GETUTCDATE':
      case 'SYSUTCDATETIME':
        return 'LOCALTIMESTAMP'
      case 'SYSDATETIMEOFFSET':
        return 'now()'
      case 'COUNT_BIG':
        return `count(${all().join(', ')})`
      default:
        return `${name}(${all().join(', ')})`
    }
  }
}

/** SQL Server's DATA_TYPE for a PostgreSQL column of information_schema.columns. */
const SQLSERVER_TYPE = `CAST(CASE data_type WHEN 'integer' THEN 'int' WHEN 'bigint' THEN 'bigint' WHEN 'smallint' THEN 'smallint' WHEN 'boolean' THEN 'bit' WHEN 'double precision' THEN 'float' WHEN 'real' THEN 'real' WHEN 'numeric' THEN 'decimal' WHEN 'date' THEN 'date' WHEN 'timestamp without time zone' THEN 'datetime2' WHEN 'timestamp with time zone' THEN 'datetimeoffset' WHEN 'time without time zone' THEN 'time' WHEN 'uuid' THEN 'uniqueidentifier' WHEN 'bytea' THEN 'varbinary' ELSE 'nvarchar' END AS text)`

function split(nodes: readonly Node[]): Node[][] {
  const out: Node[][] = [[]]
  for (const n of nodes) {
    if (n.kind === 'punct' && n.value === ',') out.push([])
    else out.at(-1)?.push(n)
  }
  return out.length === 1 && out[0]?.every((n) => n.kind === 'space') ? [] : out
}

export function translate(text: string, scope: TranslationScope): string {
  return new Translator(scope).list(group(tokenize(text)))
}
