import { MAX_NAME } from './fields.js'

/**
 * Edit distance between two names (optimal string alignment: insertions, deletions,
 * substitutions and swaps of neighbours each count 1), case-insensitively.
 */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase()
  const t = b.toLowerCase()
  // rows i-2, i-1 and i of the distance table
  let before: number[] = []
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j)
  for (let i = 1; i <= s.length; i++) {
    const current = [i]
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1
      let d = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost)
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        d = Math.min(d, (before[j - 2] as number) + 1)
      current.push(d)
    }
    before = previous
    previous = current
  }
  return previous[t.length] as number
}

/**
 * The declared name `name` was most likely meant as: equal but for case, or within a small
 * edit distance (1 for names up to 4 characters, 2 up to 9, 3 beyond). Undefined when none is
 * close, or when two are equally close.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length > MAX_NAME) return undefined
  const limit = name.length <= 4 ? 1 : name.length <= 9 ? 2 : 3
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  let tie = false
  for (const candidate of candidates) {
    if (candidate === name || Math.abs(candidate.length - name.length) > limit) continue
    const d = candidate.toLowerCase() === name.toLowerCase() ? 0 : editDistance(name, candidate)
    if (d < bestDistance) [best, bestDistance, tie] = [candidate, d, false]
    else if (d === bestDistance) tie = true
  }
  return best !== undefined && bestDistance <= limit && !tie ? best : undefined
}
