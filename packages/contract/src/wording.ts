/**
 * Readable wording of a string `pattern`, keyed by the pattern: a 400 then says
 * `domains[0] must be <wording>` instead of quoting the regular expression. The server's
 * validation errors (validation/schema-errors.ts) read it; schemas here and in the server
 * register into it with `worded`.
 */
export const PATTERN_WORDING = new Map<string, string>()

/** Registers the wording of `pattern` (see PATTERN_WORDING) and returns the pattern. */
export function worded(pattern: string, wording: string): string {
  PATTERN_WORDING.set(pattern, wording)
  return pattern
}
