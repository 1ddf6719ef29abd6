/**
 * T-SQL text → tokens for the stand-in's translation (tsql.ts): N'…' and '…' strings ('' inside),
 * [bracketed] and "quoted" identifiers, words (names, keywords, @p0, @@DATEFIRST), numbers,
 * punctuation; whitespace and comments are kept as they are.
 */
export type TokenKind = 'space' | 'string' | 'ident' | 'word' | 'number' | 'punct'

export interface Token {
  readonly kind: TokenKind
  /** For strings and identifiers: the value without quotes; else the text. */
  readonly value: string
}

const PATTERNS: readonly [TokenKind, RegExp][] = [
  ['space', /^(?:\s+|--[^\n]*|\/\*[\s\S]*?\*\/)/],
  ['string', /^N?'(?:[^']|'')*'/i],
  ['ident', /^\[(?:[^\]]|\]\])*\]/],
  ['ident', /^"(?:[^"]|"")*"/],
  ['number', /^\d+(?:\.\d*)?(?:[eE][-+]?\d+)?/],
  ['word', /^@{0,2}[A-Za-z_#][A-Za-z0-9_#$@]*/],
  ['punct', /^(?:<>|!=|<=|>=|::|.)/],
]

export function tokenize(text: string): Token[] {
  const out: Token[] = []
  let rest = text
  while (rest.length > 0) {
    let matched = false
    for (const [kind, pattern] of PATTERNS) {
      const m = pattern.exec(rest)
      if (!m) continue
      const raw = m[0]
      rest = rest.slice(raw.length)
      matched = true
      if (kind === 'string') out.push({ kind, value: raw.replace(/^N/i, '').slice(1, -1).replaceAll("''", "'") })
      else if (kind === 'ident' && raw.startsWith('['))
        out.push({ kind, value: raw.slice(1, -1).replaceAll(']]', ']') })
      else if (kind === 'ident') out.push({ kind, value: raw.slice(1, -1).replaceAll('""', '"') })
      else out.push({ kind, value: raw })
      break
    }
    if (!matched) throw new Error(`cannot read the statement at: ${rest.slice(0, 20)}`)
  }
  return out
}

/** A word token's upper-case text, else undefined. */
export const keyword = (t: { readonly kind: string } | undefined): string | undefined =>
  t?.kind === 'word' ? (t as Token).value.toUpperCase() : undefined

export const isPunct = (t: { readonly kind: string } | undefined, p: string): boolean =>
  t?.kind === 'punct' && (t as Token).value === p
