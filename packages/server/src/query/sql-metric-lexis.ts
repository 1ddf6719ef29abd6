/**
 * A SQL metric read as its engine reads it, before the parser reads it. The parser and the engine
 * must agree on which text is a comment, a string or a quoted name: a comment the parser skips
 * but the engine runs (MariaDB's `/*M!100000 … *\/`), or a string the parser ends earlier than
 * the engine, is SQL that the structural checks never see. This scanner follows each engine's
 * lexical rules where they decide what is code, refuses every form on which engines, server
 * settings or the parser may disagree, and returns what it found so that the caller can check
 * that the parser saw the same (`agreesWithParser`).
 */
import type { DialectName } from './types.js'

/** A comment or a quoted token, as UTF-16 offsets into the text ([start, end)). */
export interface Lexeme {
  readonly kind: 'comment' | 'quoted'
  readonly start: number
  readonly end: number
  /** A comment's text without its markers (a line comment without its line break). */
  readonly content: string
}

interface Lexis {
  /** `#` starts a line comment (MySQL/MariaDB, BigQuery; ClickHouse when a space or `!` follows: any `#` here). */
  readonly hash: boolean
  /** `//` starts a line comment (Snowflake). */
  readonly slashes: boolean
  /** `--` is a comment only when whitespace, a control character or the end follows (MySQL/MariaDB). */
  readonly dashSpace: boolean
  /** `[name]` is a quoted name (SQL Server). */
  readonly brackets: boolean
  /** `'''…'''` and `"""…"""` are strings (BigQuery): refused. */
  readonly triple: boolean
  /** `@name` / `@@name` reads or sets a session or server variable: refused. */
  readonly variables: boolean
}

const PLAIN: Lexis = { hash: false, slashes: false, dashSpace: false, brackets: false, triple: false, variables: false }
const LEXIS: Record<DialectName, Lexis> = {
  postgres: PLAIN,
  firebolt: PLAIN,
  duckdb: PLAIN,
  trino: PLAIN,
  databricks: PLAIN,
  mysql: { ...PLAIN, hash: true, dashSpace: true, variables: true },
  clickhouse: { ...PLAIN, hash: true },
  bigquery: { ...PLAIN, hash: true, triple: true, variables: true },
  snowflake: { ...PLAIN, slashes: true },
  mssql: { ...PLAIN, brackets: true, variables: true },
  elasticsearch: PLAIN,
  mongodb: PLAIN,
}

const QUOTES = `'"\``
/** Ends a line comment in some engine (PostgreSQL ends one at `\r` as well as at `\n`). */
const LINE_BREAKS = /[\r\v\f\u0085\u2028\u2029]/
const IDENT_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/
const DOLLAR_QUOTE = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y
const dollarQuote = (text: string, at: number): boolean => {
  DOLLAR_QUOTE.lastIndex = at
  return DOLLAR_QUOTE.test(text)
}

/**
 * The comments and quoted tokens of `text` as the engine of `dialect` reads them. Throws, by
 * `refuse`, on an executable comment or optimizer hint (`/*!`, `/*M!`, `/*+`), a `/*` inside a
 * block comment (engines disagree on nesting), an unterminated comment or string, a line comment
 * holding a line break other than `\n`, a backslash right before a quote inside a string (whether
 * it escapes depends on the engine and its settings), dollar-quoted and triple-quoted strings, a
 * NUL character, and, where they exist, `@` session variables.
 */
export function engineLexemes(text: string, dialect: DialectName, refuse: (reason: string) => never): Lexeme[] {
  const lx = LEXIS[dialect]
  const out: Lexeme[] = []
  if (text.includes('\u0000')) refuse('a NUL character is not allowed')
  const lineComment = (start: number, marker: number) => {
    let end = text.indexOf('\n', start + marker)
    if (end < 0) end = text.length
    const content = text.slice(start + marker, end)
    if (LINE_BREAKS.test(content.replace(/\r$/, ''))) {
      refuse('a line comment must end at a line feed; engines end one at other line breaks too')
    }
    out.push({ kind: 'comment', start, end, content: content.replace(/\r$/, '') })
    return end
  }
  let i = 0
  while (i < text.length) {
    const c = text[i] as string
    const next = text[i + 1] ?? ''
    if (c === '/' && next === '*') {
      const opener = text.slice(i + 2, i + 4)
      if (/^(?:[!+]|[Mm]!)/.test(opener)) {
        refuse('executable comments and optimizer hints (/*! … */, /*M! … */, /*+ … */) are not allowed')
      }
      const close = text.indexOf('*/', i + 2)
      if (close < 0) refuse('a block comment is not closed')
      if (text.slice(i + 2, close).includes('/*')) {
        refuse('a block comment must not contain /* (engines disagree on nested comments)')
      }
      out.push({ kind: 'comment', start: i, end: close + 2, content: text.slice(i + 2, close) })
      i = close + 2
    } else if (c === '-' && next === '-' && (!lx.dashSpace || /^$|^[\s\p{Cc}]/u.test(text.slice(i + 2, i + 3)))) {
      i = lineComment(i, 2)
    } else if ((c === '#' && lx.hash) || (c === '/' && next === '/' && lx.slashes)) {
      i = lineComment(i, c === '#' ? 1 : 2)
    } else if (QUOTES.includes(c) || (c === '[' && lx.brackets)) {
      i = quoted(i, c)
    } else if (c === '$' && !IDENT_CHAR.test(text[i - 1] ?? ' ') && dollarQuote(text, i)) {
      refuse('dollar-quoted strings are not allowed; write a quoted string')
    } else if (c === '@' && lx.variables) {
      refuse('session and server variables (@name, @@name) are not allowed')
    } else i++
  }
  return out

  function quoted(start: number, open: string): number {
    const close = open === '[' ? ']' : open
    if (lx.triple && open !== '[' && text.startsWith(open.repeat(3), start)) {
      refuse('triple-quoted strings are not allowed; write a quoted string')
    }
    let at = start + 1
    for (;;) {
      const end = text.indexOf(close, at)
      if (end < 0) refuse('a string or quoted name is not closed')
      if (text[end + 1] === close) {
        at = end + 2 // doubled: the quote itself
        continue
      }
      const inner = text.slice(start + 1, end)
      if (open !== '[' && /\\['"`]/.test(inner + close)) {
        refuse('a backslash right before a quote inside a string reads differently across engines; double the quote')
      }
      out.push({ kind: 'quoted', start, end: end + 1, content: inner })
      return end + 1
    }
  }
}

/** A comment as the parser reports it, in offsets. */
export interface ParserComment {
  readonly start: number
  readonly content: string
}

/**
 * Whether the parser saw exactly the engine's comments, and every token the parser read as a
 * string or quoted name (`quoted`: [start, end) of its span, which may include a prefix such as
 * `E`, `N` or `_utf8mb4`) is one the engine reads as such too.
 */
export function agreesWithParser(
  text: string,
  lexemes: readonly Lexeme[],
  comments: readonly ParserComment[],
  quoted: readonly { start: number; end: number }[],
): boolean {
  const engine = lexemes.filter((l) => l.kind === 'comment')
  if (engine.length !== comments.length) return false
  const byStart = new Map(engine.map((l) => [l.start, l.content]))
  for (const c of comments) {
    const content = byStart.get(c.start)
    if (content === undefined || content !== c.content.replace(/\r?\n?$/, '')) return false
  }
  const quotes = new Map(lexemes.filter((l) => l.kind === 'quoted').map((l) => [l.end, l.start]))
  return quoted.every((q) => {
    const start = quotes.get(q.end)
    return start !== undefined && start >= q.start && /^[A-Za-z0-9_&]*$/.test(text.slice(q.start, start))
  })
}
