/** How much of an error's message `failureText` keeps. */
export interface FailureTextLimits {
  /** At most this many characters. */
  readonly max: number
  /** Only the first line (a driver's error whose next lines quote the SQL), else every line. */
  readonly firstLine: boolean
}

/** A rollup's `last_error`: the first line, a driver's message without the SQL it quotes. */
const ONE_LINE: FailureTextLimits = { max: 1000, firstLine: true }

/**
 * An error as the text a scheduled job records (`last_error`) and logs: its message (an
 * ApiError's, a driver's, an SMTP server's), never a stack, cut to `limits`.
 */
export function failureText(err: unknown, limits: FailureTextLimits = ONE_LINE): string {
  const text = err instanceof Error ? err.message : String(err)
  const kept = limits.firstLine ? text.split('\n')[0] : text
  return kept?.slice(0, limits.max) ?? 'failed'
}
